// Checks an exported Shengji policy outside Python: loads policy.onnx with
// onnxruntime-node, runs the manifest's golden inputs and compares the logits and values
// with the ones the exporter recorded. Prints one line per vector and a summary; exits 1
// on a mismatch or a bad folder.
//
//   node node/golden.mjs exports/full-v4 [--tolerance 1e-4]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ort from "onnxruntime-node";

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}

function tensors(manifest, vector) {
  const feeds = {
    observation: new ort.Tensor("float32", Float32Array.from(vector.observation), [1, vector.observation.length]),
    action_mask: new ort.Tensor("int8", Int8Array.from(vector.action_mask), [1, vector.action_mask.length]),
  };
  if ("advice" in manifest.inputs) {
    if (!("advice" in vector)) fail("the policy is advised but a golden vector has no advice");
    feeds.advice = new ort.Tensor("int64", BigInt64Array.from([BigInt(vector.advice)]), [1]);
  }
  return feeds;
}

async function main() {
  const args = process.argv.slice(2);
  const folder = args[0];
  if (!folder) fail("usage: node golden.mjs EXPORT_DIR [--tolerance T]");
  const at = args.indexOf("--tolerance");
  const tolerance = at >= 0 ? Number(args[at + 1]) : 1e-4;
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"));
  } catch (error) {
    fail(`cannot read ${join(folder, "manifest.json")}: ${error.message}`);
  }
  if (manifest.format !== "shengji-policy") fail(`${folder} holds no shengji policy manifest`);
  const session = await ort.InferenceSession.create(join(folder, manifest.model.file), {
    intraOpNumThreads: 1,
  });
  let worst = 0;
  let bad = 0;
  const started = process.hrtime.bigint();
  for (const [index, vector] of manifest.golden.entries()) {
    const out = await session.run(tensors(manifest, vector));
    const logits = out.logits.data;
    let gap = Math.abs(out.value.data[0] - vector.value);
    for (let i = 0; i < logits.length; i++) gap = Math.max(gap, Math.abs(logits[i] - vector.logits[i]));
    worst = Math.max(worst, gap);
    const argmax = (values) => values.reduce((best, v, i, all) => (v > all[best] ? i : best), 0);
    const same = argmax(Array.from(logits)) === argmax(vector.logits);
    if (gap > tolerance || !same) bad++;
    console.log(`vector ${index}: largest difference ${gap.toExponential(2)}, same action: ${same}`);
  }
  const micros = Number(process.hrtime.bigint() - started) / 1000 / manifest.golden.length;
  console.log(
    `golden: ${manifest.golden.length - bad} of ${manifest.golden.length} within ${tolerance} ` +
      `(largest ${worst.toExponential(2)}; ${micros.toFixed(0)} µs a vector, first run included)`,
  );
  if (bad) process.exit(1);
}

main();
