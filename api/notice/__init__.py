"""Announcements a site shows its users after sign-in (the notice modal) and their management."""
