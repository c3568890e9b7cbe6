#!/usr/bin/env python3
"""Writes the hostile `.kessel` cases of this corpus (folders `package_*`) from a good package.

Usage: kessel pack core/tests/fixtures/toy -o /tmp/toy.kessel --include-ruleset
       python3 tests/badfiles/make_packages.py /tmp/toy.kessel
Each case gets `package.kessel` and `expect.txt`; `tests/hostile.rs` runs `kessel check` on it.
"""
import io, os, sys, zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def entries(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i)) for i in z.infolist()]


def zipped(items):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return buf.getvalue()


def case(name, data, expect, why):
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "package.kessel"), "wb") as f:
        f.write(data)
    with open(os.path.join(d, "expect.txt"), "w") as f:
        f.write(f"# {why}\n# expect: {expect}\n# where: tests/badfiles/{name}/package.kessel\n")


def main(good):
    base = entries(good)
    refused = "refused, the package is damaged or was changed after packing"
    case("package_not_a_zip", b"PK\x03\x04 this is not a zip archive at all\n" * 20,
         "not a readable zip archive", "a file named .kessel that is no zip")
    edited = [(n, d.replace(b"turns = ", b"turns = 9") if n == "scenario.toml" else d) for n, d in base]
    case("package_hash_mismatch", zipped(edited), "`scenario.toml` does not match its SHA-256",
         "the scenario was edited after packing; the manifest still has the old hash")
    case("package_unlisted_entry", zipped(base + [("extra.lua", b"while true do end\n")]),
         "`extra.lua` is in the package but not in its manifest", "a file slipped in after packing")
    case("package_missing_entry", zipped([(n, d) for n, d in base if n != "map.toml"]),
         "`map.toml` is in the manifest but missing", "a file of the manifest taken out")
    case("package_no_manifest", zipped([(n, d) for n, d in base if n != "manifest.toml"]),
         "it has no manifest.toml", "no manifest: nothing to check the files against")
    case("package_path_traversal", zipped(base + [("tests/../../escape.lua", b"-- out\n")]),
         "unsafe path", "an entry that would be written outside the unpack folder")
    case("package_absolute_path", zipped(base + [("/tmp/kessel-escape.lua", b"-- out\n")]),
         "unsafe path", "an entry with an absolute path")
    case("package_zip_bomb", zipped(base + [("bomb.txt", b"\0" * (20 << 20))]),
         "unpacks to", "20 MiB of zeros squeezed into a few KiB; entries are limited to 16 MiB")
    # the same bomb with its sizes in the headers rewritten to 10 bytes: the reader must not trust them
    bomb = bytearray(zipped([("bomb.txt", b"\0" * (20 << 20))] + base))
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = bomb.find(sig)
        bomb[i + off:i + off + 4] = (10).to_bytes(4, "little")
    case("package_zip_bomb_lying_header", bytes(bomb), refused,
         "a bomb whose headers claim 10 bytes")
    # two entries of one name: the altered copy first, which some zip readers read and some skip
    altered = [(n, b"-- altered\n" + d if n == "scenario.toml" else d) for n, d in base]
    first = [x for x in altered if x[0] == "scenario.toml"] + base
    case("package_duplicate_entry", zipped(first), "entry `scenario.toml` appears twice",
         "the scenario twice, the altered copy first")
    case("package_case_collision", zipped(base + [("Scenario.toml", b"[scenario]\n")]),
         "differ only in case",
         "two names equal but for case: one file on a case-insensitive disk")
    print("ok:", refused)


if __name__ == "__main__":
    main(sys.argv[1])
