"""Asked only about a position a lesson gives."""
