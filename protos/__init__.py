"""The gRPC/protobuf contract, package guesswork.v1 (not written yet)."""
