"""grpcurl-style discovery of a gRPC server through its reflection service, in Python.

Needs only grpcio and grpcio-reflection (pip install grpcio grpcio-reflection
protobuf, or any Guesswork install), so it runs where grpcurl is not packaged:

    python examples/discover.py 127.0.0.1:50051 list
    python examples/discover.py 127.0.0.1:50051 describe guesswork.v1.Guesswork
    python examples/discover.py 127.0.0.1:50051 call guesswork.v1.Guesswork/SuggestGuess \\
        '{"policy": "wordle-2309-normal-neg-entropy",
          "history": [{"guess": "raise", "reply": ".Y..."}]}'

``list`` prints the services, ``describe`` a service's methods with their
request and response types (or a message's fields), ``call`` sends a JSON
request and prints the JSON response; a failed call prints the status, the
ErrorInfo reason and its metadata, and exits 1. Everything is learnt from
the server (reflection), nothing from local protos.
"""

from __future__ import annotations

import json
import sys

import grpc
from google.protobuf import descriptor_pool, json_format, message_factory
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from grpc_status import rpc_status


def main(argv: list[str]) -> int:
    """Run one command; return the exit status."""
    if len(argv) < 2 or argv[1] not in ("list", "describe", "call"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    address, command, *rest = argv
    with grpc.insecure_channel(address) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        pool = descriptor_pool.DescriptorPool(database)
        if command == "list":
            for name in database.get_services():
                print(name)
            return 0
        if command == "describe":
            try:
                service = pool.FindServiceByName(rest[0])
            except KeyError:
                message = pool.FindMessageTypeByName(rest[0])
                for field in message.fields:
                    print(f"{field.name} = {field.number}")
                return 0
            for method in service.methods:
                print(
                    f"rpc {method.name}({method.input_type.full_name}) "
                    f"returns ({method.output_type.full_name})"
                )
            return 0
        service_name, method_name = rest[0].split("/")
        method = pool.FindServiceByName(service_name).FindMethodByName(method_name)
        request_class = message_factory.GetMessageClass(method.input_type)
        response_class = message_factory.GetMessageClass(method.output_type)
        request = json_format.Parse(rest[1] if len(rest) > 1 else "{}", request_class())
        call = channel.unary_unary(
            f"/{service_name}/{method_name}",
            request_serializer=request_class.SerializeToString,
            response_deserializer=response_class.FromString,
        )
        try:
            response = call(request, timeout=30)
        except grpc.RpcError as error:
            status = rpc_status.from_call(error)  # type: ignore[arg-type]
            info = error_details_pb2.ErrorInfo()
            if status is not None and status.details:
                status.details[0].Unpack(info)
            print(
                json.dumps(
                    {
                        "code": error.code().name,
                        "message": error.details(),
                        "reason": info.reason,
                        "metadata": dict(info.metadata),
                    }
                )
            )
            return 1
        print(json_format.MessageToJson(response, preserving_proto_field_name=True))
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
