"""Platforms: the branded sites (BaseCustomPage), their domains and style models."""
