"""Scene items drawing a map (one per layer) and the scene that holds them."""
