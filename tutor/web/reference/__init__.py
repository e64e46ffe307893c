"""The rules reference, `/<lang>/rules/`: the engine's answers arranged as tables."""
