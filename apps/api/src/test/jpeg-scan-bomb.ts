/**
 * A progressive JPEG whose every scan is legal (no warning for libjpeg to fail on) but with one
 * refinement scan per coefficient band and bit: ~2,000 scans, ~360 KB at 6000 × 6000, and 15 s of
 * one libjpeg call (issue 26's adversarial review). Every block is zero: DC category 0, AC end-of-band runs.
 */
export function progressiveScanBomb({ width = 6000, height = 6000, components = 3, bands = 63, bits = 10 } = {}) {
  const out: number[] = [];
  const u16 = (n: number) => [(n >> 8) & 255, n & 255];
  const segment = (marker: number, body: number[]) => out.push(0xff, marker, ...u16(body.length + 2), ...body);
  const ids = [1, 2, 3].slice(0, components);
  out.push(0xff, 0xd8);
  segment(0xdb, [0, ...Array<number>(64).fill(1)]);
  segment(0xc2, [8, ...u16(height), ...u16(width), components, ...ids.flatMap((id) => [id, 0x11, 0])]);
  segment(0xc4, [0x00, 1, ...Array<number>(15).fill(0), 0x00]); // DC: one symbol, category 0
  segment(0xc4, [0x10, 0, 0, 0, 15, ...Array<number>(12).fill(0), ...Array.from({ length: 15 }, (_, r) => r << 4)]); // AC: EOBr
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const entropy = (emit: (put: (value: number, length: number) => void) => void) => {
    let acc = 0;
    let n = 0;
    const put = (value: number, length: number) => {
      for (let i = length - 1; i >= 0; i--) {
        acc = (acc << 1) | ((value >> i) & 1);
        if (++n === 8) {
          out.push(acc);
          if (acc === 0xff) out.push(0);
          acc = 0;
          n = 0;
        }
      }
    };
    emit(put);
    if (n > 0) put((1 << (8 - n)) - 1, 8 - n);
  };
  const endOfBandRuns = (put: (value: number, length: number) => void) => {
    for (let left = blocks; left > 0;) {
      const r = Math.min(14, Math.floor(Math.log2(left)));
      const run = Math.min(left, (1 << r) * 2 - 1);
      put(r, 4);
      if (r > 0) put(run - (1 << r), r);
      left -= run;
    }
  };
  segment(0xda, [components, ...ids.flatMap((id) => [id, 0x00]), 0, 0, 0x00]);
  entropy((put) => {
    for (let i = 0; i < blocks * components; i++) put(0, 1);
  });
  for (const id of ids)
    for (let k = 1; k <= bands; k++) {
      segment(0xda, [1, id, 0x00, k, k, bits]);
      entropy(endOfBandRuns);
      for (let ah = bits; ah >= 1; ah--) {
        segment(0xda, [1, id, 0x00, k, k, (ah << 4) | (ah - 1)]);
        entropy(endOfBandRuns);
      }
    }
  out.push(0xff, 0xd9);
  return Buffer.from(out);
}
