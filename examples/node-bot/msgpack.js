'use strict';
// Strict msgpack decoding for untrusted policy files, on @msgpack/msgpack.
//
// The spec (docs/policy-format.rst) types every field as msgpack types, and
// JavaScript numbers cannot tell a msgpack float 6.0 from an int 6, nor does
// the library refuse invalid UTF-8 in strings (it substitutes U+FFFD). So this
// decoder, a subclass of the library's Decoder:
//   * returns every msgpack float (float 32 and 64) as a MsgpackFloat, so a
//     float where the spec says int (or the reverse, in "stats") is noticed;
//   * refuses strings (map keys included) that are not valid UTF-8;
//   * refuses extension types, map keys that are not strings, and trailing bytes;
//   * limits lengths (strings 1 MiB, arrays 2^21 items, maps 4096 pairs).
// The overridden methods are internals of the pinned @msgpack/msgpack 3.1.3;
// a self-test below fails loudly at load time if another version changed them.

const { Decoder } = require('@msgpack/msgpack');

/** A msgpack float; `value` is the number. Serialises to JSON as {"float": value}. */
class MsgpackFloat {
  constructor(value) {
    this.value = value;
  }

  toJSON() {
    return { float: this.value };
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const refuseExtensions = {
  encode() {
    return null;
  },
  decode(_data, type) {
    throw new Error(`msgpack extension type ${type} is not allowed`);
  },
};

class StrictDecoder extends Decoder {
  readF32() {
    return new MsgpackFloat(super.readF32());
  }

  readF64() {
    return new MsgpackFloat(super.readF64());
  }

  decodeUtf8String(byteLength, headerOffset) {
    const text = super.decodeUtf8String(byteLength, headerOffset); // checks bounds, advances pos
    try {
      strictUtf8.decode(this.bytes.subarray(this.pos - byteLength, this.pos));
    } catch {
      throw new Error('a string is not valid UTF-8');
    }
    return text;
  }
}

/** Decode one msgpack value (throws an Error saying what is wrong). */
function unpack(bytes, limits = {}) {
  const limit = bytes.length;
  const decoder = new StrictDecoder({
    extensionCodec: refuseExtensions,
    keyDecoder: null, // every key through decodeUtf8String, so keys are checked too
    maxBinLength: limit,
    maxStrLength: Math.min(limit, limits.maxStrLength || 1 << 20),
    maxArrayLength: Math.min(limit, limits.maxArrayLength || 1 << 21),
    maxMapLength: Math.min(limit, limits.maxMapLength || 4096),
    maxExtLength: 0,
    mapKeyConverter: (key) => {
      if (typeof key !== 'string') throw new Error('a map key is not a string');
      return key;
    },
  });
  return decoder.decode(bytes); // refuses trailing bytes itself
}

// Self-test: {"a": 1.5} decodes with a MsgpackFloat, and {"\xff": 1} is refused.
(() => {
  const float = unpack(Uint8Array.from([0x81, 0xa1, 0x61, 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]));
  let refused = false;
  try {
    unpack(Uint8Array.from([0x81, 0xa1, 0xff, 0x01]));
  } catch {
    refused = true;
  }
  if (!(float.a instanceof MsgpackFloat && float.a.value === 1.5 && refused)) {
    throw new Error('msgpack.js: @msgpack/msgpack is not the pinned version (3.1.3); run npm ci');
  }
})();

module.exports = { unpack, MsgpackFloat };
