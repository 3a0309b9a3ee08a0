"""The api layer: pure functions from the model to the spellings of each generated target."""
