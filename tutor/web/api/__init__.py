"""The JSON API v1 (`/api/v1/…`) and its OpenAPI document."""
