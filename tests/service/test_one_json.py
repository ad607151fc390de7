"""One JSON: the proto's JSON mapping as client.messages writes it for HTTP and the
command line alike."""

from __future__ import annotations

from guesswork.client.messages import json_object, json_text
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb


def test_a_maps_entries_come_in_key_order() -> None:
    """The proto's JSON mapping leaves a map's order open (protobuf's string-keyed maps
    iterate in a new order in each process): json_object sorts them, so the same
    answer prints the same bytes every time, over HTTP and on the command line."""
    starts = {"ZA": 1, "AB": 2, "MO": 3, "BE": 4}
    response = pb.ScoreHoneycombResponse(two_letter_starts=starts)
    assert list(json_object(response)["twoLetterStarts"]) == ["AB", "BE", "MO", "ZA"]
    histogram = pb.Policy(histogram={10: 1, 2: 5, 7: 3})
    listed = json_object(pb.ListPoliciesResponse(policies=[histogram]))["policies"][0]
    assert list(listed["histogram"]) == ["2", "7", "10"]
    assert json_text(response) == ('{"twoLetterStarts": {"AB": 2, "BE": 4, "MO": 3, "ZA": 1}}')
