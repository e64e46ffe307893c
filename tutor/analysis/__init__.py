"""Judging a card by simulation: worlds consistent with what one seat has seen
(``worlds``), the computer players playing each candidate card out in them (``judge``), the
verdicts and the table tips that explain them (``verdicts``, ``tips``), and a whole deal's
review for one seat (``review``). Pure Python beside the engine; no Flask.
"""
