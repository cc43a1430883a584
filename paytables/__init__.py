"""The shipped table profiles (YAML), installed as package data."""
