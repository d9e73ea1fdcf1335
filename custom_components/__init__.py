"""Custom integrations shipped by this repository (Home Assistant loads them by folder)."""
