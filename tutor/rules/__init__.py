"""The rules engine: pure Python, no Flask. Everything the app shows about the game comes from here."""
