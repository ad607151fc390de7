"""Server reflection under both of its names: ``grpc.reflection.v1`` and ``v1alpha``.

grpcio-reflection implements only ``grpc.reflection.v1alpha``, but current
tools (grpcurl, Postman, grpc_cli) ask ``grpc.reflection.v1`` first. The two
protocols are the same messages under another package name, so the same
wire bytes mean the same thing: the v1 service is the v1alpha servicer with
v1's method path. Its descriptor is added to the default pool (renamed from
v1alpha's), so a client can also reflect on the reflection service itself.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2

V1ALPHA = "grpc.reflection.v1alpha"
V1 = "grpc.reflection.v1"
V1_SERVICE_NAME = f"{V1}.ServerReflection"
V1_FILE = "grpc/reflection/v1/reflection.proto"


def _register_v1_descriptor() -> None:
    """Add grpc/reflection/v1/reflection.proto to the default pool (once)."""
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(V1_FILE)
        return
    except KeyError:
        pass
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    file.name, file.package = V1_FILE, V1
    file.ClearField("options")
    old, new = f".{V1ALPHA}.", f".{V1}."  # type references, e.g. ".grpc.reflection.v1alpha.X"
    for message in file.message_type:
        for field in message.field:
            if field.HasField("type_name"):
                field.type_name = field.type_name.replace(old, new)
    for service in file.service:
        for method in service.method:
            method.input_type = method.input_type.replace(old, new)
            method.output_type = method.output_type.replace(old, new)
    pool.Add(file)


def reflection_handlers(services: Iterable[str]) -> dict[str, dict[str, grpc.RpcMethodHandler]]:
    """Return the handlers of reflection (v1 and v1alpha) for ``services`` and itself, by
    service name and method name (service.guarded serves them)."""
    _register_v1_descriptor()
    names = (*services, reflection.SERVICE_NAME, V1_SERVICE_NAME)
    # The asyncio servicer: the server is a grpc.aio one (service.server).
    servicer = reflection.aio.ReflectionServicer(names)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    return {
        name: {"ServerReflectionInfo": handler}
        for name in (reflection.SERVICE_NAME, V1_SERVICE_NAME)
    }
