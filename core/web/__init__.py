"""``mindgames serve``: a local web page to play any installed game against an agent and to
replay recorded games (the WSGI app, its JSON API, SVG boards and the page's static files)."""
