// labs/names.js: every lab's name in the scene list, in English and in Chinese, one line each, by
// the catalogue's id. The list names a lab before its code loads, so its name cannot live with
// its other words in its lesson's folder (the first view would load them all): it lives here,
// once; the i18n files and the labs' words do not repeat it.
export const labNames = {
  heads: { en: "Heads", zh: "多头" },
  gqa: { en: "Fewer K/V heads", zh: "更少的键值头" },
  kvcache: { en: "KV cache", zh: "KV 缓存" },
  order: { en: "Word order", zh: "词序" },
  scaling: { en: "Why √d_k", zh: "为什么除以 √d_k" },
  tiling: { en: "Online softmax", zh: "在线 softmax" },
  stability: { en: "Numerical stability", zh: "数值稳定性" },
  dropout: { en: "Dropout", zh: "随机失活 dropout" },
  scale: { en: "Scale", zh: "规模" },
  sharpness: { en: "Learn the sharpness", zh: "学习锐度" },
  teach: { en: "Teach 书 to read", zh: "教“书”去读" },
  induction: { en: "An induction head forms", zh: "归纳头的形成" },
  model: { en: "A real model", zh: "真正的模型" },
  text: { en: "Your own text", zh: "你自己的文字" },
  tokens: { en: "Their tokens", zh: "它们的词元" },
  bpe: { en: "A vocabulary by hand", zh: "亲手造词表" },
  sizes: { en: "Their sizes", zh: "它们的大小" },
};
