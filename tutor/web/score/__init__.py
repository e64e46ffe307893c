"""Scoring at the table: the calculator (`/<lang>/score/`), the deal form it shares with
the score sheets (`/<lang>/sheet/`), and the sheets themselves."""
