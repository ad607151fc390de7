"""The gRPC lookup service (not built yet: see the service issue)."""
