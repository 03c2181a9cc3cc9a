// labs/learn/words.js: the strings the two "how it learns" labs share, in English and Chinese.
// Each lab's own words are in its file.

export const learnWords = {
  en: {
    ui: {
      eta: "Learning rate η",
      steps: "Steps N",
      at: "Step shown t",
    },
    learn: {
      trainer: "Training",
      step: "Step",
      train: "Train",
      stop: "Stop",
      reset: "Reset",
      at: (t, n) => `Training step ${t} of ${n}.`,
      run: (t, n, eta) => `Training step ${t} of ${n}, η = ${eta}.`,
      stepAxis: "step",
      tableTitle: "The core's numbers, step by step",
      stepName: (t) => `step ${t}`,
      grows: "it grows",
      shrinks: "it shrinks",
      stays: "it stays",
    },
  },
  zh: {
    ui: {
      eta: "学习率 η",
      steps: "步数 N",
      at: "显示第 t 步",
    },
    learn: {
      trainer: "训练",
      step: "走一步",
      train: "训练",
      stop: "停止",
      reset: "重来",
      at: (t, n) => `第 ${t} 个训练步，共 ${n} 个。`,
      run: (t, n, eta) => `第 ${t} 个训练步，共 ${n} 个，η = ${eta}。`,
      stepAxis: "步",
      tableTitle: "核心算出的数，一步一步",
      stepName: (t) => `第 ${t} 步`,
      grows: "变大",
      shrinks: "变小",
      stays: "不变",
    },
  },
};

/** A lab's own words over the shared ones, key by key. */
export function withLearnWords(own) {
  const merged = {};
  for (const lang of ["en", "zh"]) {
    merged[lang] = { ...learnWords[lang], ...own[lang] };
    merged[lang].ui = { ...learnWords[lang].ui, ...own[lang].ui };
  }
  return merged;
}
