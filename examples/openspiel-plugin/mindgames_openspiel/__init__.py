"""mindgames-openspiel: OpenSpiel's two-player perfect-information games as mindgames games.

The hooks live in ``mindgames_openspiel.plugin`` (the distribution's entry point).
"""
