"""The ``gameshelf`` command line."""
