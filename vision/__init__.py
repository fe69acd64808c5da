"""Card vision: camera sources, card detection and recognition, reveal tracking."""
