"""The gRPC/protobuf contract, package ``guesswork.v1``, and its generated Python code.

``guesswork/v1/guesswork.proto`` is the contract any language can compile;
``guesswork_pb2*.py`` are generated from it by ``make protos``
(scripts/gen_protos.py, pinned grpcio-tools; a test regenerates and compares).
"""
