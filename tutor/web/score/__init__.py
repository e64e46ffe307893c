"""Scoring at the table: the calculator (`/<lang>/score/`), the deal form it shares with
the score sheets (`/<lang>/sheet/`), the sheets themselves and where they are kept (store.py)."""
