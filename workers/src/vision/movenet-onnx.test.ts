import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { VTEST_MISSING, vtestFixture, vtestFrames } from '../../../tests/support/vtest';
import { moveNetReference, personDifferences } from '../../test-support/movenet-reference';
import { MOVENET_COLUMNS, movenetInputSize, stripTiles } from './movenet-decode';
import { MOVENET_MODEL_DIR, moveNetStrips } from './movenet';
import { moveNetToOnnx, type TfjsGraphModel } from './movenet-onnx';

/**
 * The server runs MoveNet's network on ONNX Runtime, converted in memory from the TensorFlow.js
 * files (movenet-onnx.ts). The conversion is right when the people found are the whole graph's on
 * TensorFlow.js wasm — what the browser runs, recorded once on these frames
 * (workers/test-support/fixtures/movenet-reference.json) — to a fraction of a pixel and of a score.
 */
describe.skipIf(VTEST_MISSING)('MoveNet network on ONNX Runtime', () => {
  it('finds the same people with the same poses as the whole graph on TensorFlow.js wasm', async () => {
    const fixture = vtestFixture();
    const reference = moveNetReference();
    const input = movenetInputSize(fixture.width, fixture.height);
    // Frames with many people, a standing one among them (frames 50–125).
    const chosen = fixture.frames.map((f, i) => ({ frame: f.frame, recorded: reference.frames[i]! })).filter((_, i) => i % 8 === 2);
    const frames = await vtestFrames(
      chosen.map((c) => c.frame),
      input.width,
      input.height,
    );
    let compared = 0;
    for (const [f, rgb] of frames.entries()) {
      const { frame, recorded } = chosen[f]!;
      expect(recorded.frame).toBe(frame);
      for (const [t, tile] of stripTiles(input.width, MOVENET_COLUMNS).entries()) {
        const [native] = await moveNetStrips(rgb, input, fixture, [tile], reference.minScore);
        const wasm = recorded.strips[t]!;
        expect(native!.length).toBe(wasm.length);
        expect(native!.length).toBeGreaterThan(0);
        native!.forEach((person, i) => expect(personDifferences(person, wasm[i]!), `frame ${frame}, strip ${t}, person ${i}`).toEqual([]));
        compared += native!.length;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});

describe('MoveNet conversion to ONNX', () => {
  it('takes the six heads of the network and refuses an op it cannot convert', async () => {
    const topology = JSON.parse(await readFile(`${MOVENET_MODEL_DIR}movenet-multipose.json`, 'utf8')) as TfjsGraphModel;
    const file = await readFile(`${MOVENET_MODEL_DIR}movenet-multipose.bin`);
    const weights = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    const converted = moveNetToOnnx(topology, weights);
    expect(Object.values(converted.heads).map((h) => h.split('/')[1])).toEqual(
      expect.arrayContaining(['center_0', 'box_scale_0', 'box_offset_0', 'kpt_heatmap_0', 'kpt_regress_0', 'kpt_offset_0']),
    );
    expect(converted.bytes.length).toBeGreaterThan(15e6);
    // An activation the converter does not know (here Elu fused into a convolution) is an error, not a silent skip.
    const changed = structuredClone(topology);
    const conv = changed.modelTopology.node.find((n) => n.op === 'FusedDepthwiseConv2dNative')!;
    conv.attr!.fused_ops = { list: { s: ['BiasAdd', 'Elu'].map((op) => Buffer.from(op).toString('base64')) } };
    expect(() => moveNetToOnnx(changed, weights)).toThrow(/Elu/);
  });
});
