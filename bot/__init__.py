"""The Rasa layer's own Python: the spaCy pipeline builder, the ruler entity extractor, the tracker store."""
