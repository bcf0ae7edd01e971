"""Data sets of positions: the file format, labelling by search or solver, positions from
playouts and recorded games, and solved-position sets."""
