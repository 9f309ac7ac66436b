"""Parlor's gRPC rules service."""
