"""Issue 28's figure for the Python module: microseconds per Extractor.extract call on a 1 KB
paragraph, measured as bench/c_api_bench.c measures lexlink_extract (batches of 100 calls, the
median batch), for a str and for bytes. Run by bench/python_bench.sh beside the C program.
Usage: python3 bench/python_bench.py PARAGRAPH_FILE CALLS [JURISDICTION]"""

import statistics
import sys
import time

import lexlink


def per_call(extract, document, calls):
    batch = 100
    times = []
    for _ in range(max(calls // batch, 1)):
        t0 = time.perf_counter()
        for _ in range(batch):
            extract(document)
        times.append((time.perf_counter() - t0) * 1e6 / batch)
    times.sort()
    return statistics.median(times), times[0], times[-1], len(times)


def main():
    path, calls = sys.argv[1], int(sys.argv[2])
    jurisdiction = sys.argv[3] if len(sys.argv) > 3 else "auto"
    raw = open(path, "rb").read()
    x = lexlink.Extractor(jurisdiction)
    print(f"paragraph: {len(raw)} bytes, {len(x.extract(raw))} citations")
    for name, document in (("bytes", raw), ("str", raw.decode("utf-8"))):
        per_call(x.extract, document, calls // 10)  # warm up
        med, lo, hi, n = per_call(x.extract, document, calls)
        print(f"extract {name} (us/call): median {med:.1f}, min {lo:.1f}, max {hi:.1f} "
              f"over {n} batches of 100")


if __name__ == "__main__":
    main()
