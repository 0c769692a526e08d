"""Dictionaries every form shares (time zones ...): /api/base/BaseDict."""
