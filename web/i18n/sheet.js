// i18n/sheet.js: the words of a downloaded spreadsheet (its note, its blocks' names), zh and en.
// They load with the sheet's writer, only when the learner asks for one; the button's own words
// are in zh.js and en.js.
export const sheetWords = {
  zh: {
    noteName: "说明",
    heading: (title) => `手算注意力：${title}（带实时公式的电子表格）`,
    from: (link) => `来自页面的这个状态：${link}`,
    sheets: (names) => `每一步一张工作表，和页面上一样：${names.join("、")}。`,
    opened: (name) => `打开时停在你所在的那一步：${name}。`,
    inputs:
      "黄色格子是输入，是可以改的数。其余每个数都是一个公式，引用算出它的那些格子：点一下就能看到。",
    tryIt: (name, sheet) =>
      `试一试：在工作表“${sheet}”里改 ${name} 的一个数，看后面各表的分数、权重和输出随之重算。`,
    tryMask:
      "掩码为 1 表示查询能看这个键，为 0 表示不能看（−∞）。把一个格子改成 0，它的权重就变成 0；把一整行都改成 0，这一行的权重和输出都变成 0，不会出现除以零。",
    digits: (n) => `数字显示 ${n} 位小数，和页面上一样；每个格子都保存完整的数。`,
    functions:
      "公式只用 EXP、LN、SQRT、SIN、COS、MAX、SUM、COUNT、ROWS、COLUMNS、ISNUMBER、IF 和 + − * / ^，LibreOffice、WPS、Excel 和 Google 表格都有。被遮住的格子存的是文字 −∞，MAX、SUM 和 COUNT 会跳过它。",
    mask: "掩码（1 = 能看，0 = −∞）",
    head: (h) => `头 ${h}`,
    positions: "位置",
    keep: "这一次抽样：保留 (1) 或丢弃 (0)",
  },
  en: {
    noteName: "Read me",
    heading: (title) => `Attention by hand: ${title}, as a spreadsheet with live formulas`,
    from: (link) => `Made from the page in this state: ${link}`,
    sheets: (names) => `One sheet a step, as on the page: ${names.join(", ")}.`,
    opened: (name) => `It opens on the step you were on: ${name}.`,
    inputs:
      "Yellow cells are the inputs, numbers to change. Every other number is a formula over the cells it comes from: click one to read it.",
    tryIt: (name, sheet) =>
      `Try it: change a number of ${name} on the sheet “${sheet}” and watch the scores, the weights and the output recompute on the sheets after it.`,
    tryMask:
      "The mask is 1 where a query may see a key and 0 where it may not (−∞). Set a cell to 0 and its weight becomes 0; set a whole row to 0 and that row's weights and output become 0, with no division by zero.",
    digits: (n) => `Numbers show ${n} decimals, as on the page; every cell keeps all of them.`,
    functions:
      "The formulas use only EXP, LN, SQRT, SIN, COS, MAX, SUM, COUNT, ROWS, COLUMNS, ISNUMBER, IF and + − * / ^, which LibreOffice, WPS, Excel and Google Sheets share. A masked cell holds the text −∞, which MAX, SUM and COUNT skip.",
    mask: "mask (1 = sees, 0 = −∞)",
    head: (h) => `head ${h}`,
    positions: "position",
    keep: "kept (1) or dropped (0), this draw",
  },
};
