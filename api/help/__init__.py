"""The help centre: categories and articles each site publishes per language, read by anyone."""
