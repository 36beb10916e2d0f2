"""The games shipped with gameshelf; each subpackage registers itself on import."""
