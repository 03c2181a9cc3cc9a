// bpe_test.cpp: byte-pair encoding (bpe.hpp) on small texts worked out by hand (the counts,
// a tie, 啊啊啊's overlap, a merge that makes a new most frequent pair, 明 as E6 98 8E from
// bytes, the pre-split's pieces, line breaks), its refusals, and every case of
// tests/fixtures/bpe.json, written by a BPE written apart in Python (bpe_reference.py).
#include "bpe.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

namespace {

using attention::BpeOptions;
using attention::Index;
using Ids = std::vector<std::int32_t>;

attention::BpeTrace learn(const std::string& text, Index merges,
                          const std::string& start = "characters", bool presplit = false) {
  BpeOptions options;
  options.merges = merges;
  options.start = start;
  options.presplit = presplit;
  auto r = attention::bpe_learn(text, options);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.value;
}

TEST(Bpe, OverlappingPairsCountedTwiceMergedOnce) {
  // 啊啊啊: the pair 啊啊 at places 0 and 1; merged left to right, once: 啊啊 啊
  const auto t = learn("啊啊啊", 5);
  EXPECT_EQ(t.alphabet, "啊");
  EXPECT_EQ(t.base, 1);
  EXPECT_EQ(t.initial.ids, (Ids{0, 0, 0}));
  ASSERT_EQ(t.steps.size(), 1u);  // then 啊啊 啊 has one pair, seen once: learning stops
  const auto& s = t.steps[0];
  EXPECT_EQ(s.left, 0);
  EXPECT_EQ(s.right, 0);
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.replaced, 1);
  EXPECT_EQ(s.at, (Ids{0, 1}));
  EXPECT_EQ(s.merged_at, (Ids{0}));
  EXPECT_EQ(s.id, 1);
  EXPECT_EQ(t.vocabulary[1].text, "啊啊");
  EXPECT_EQ(t.vocabulary[1].left, 0);
  EXPECT_EQ(t.vocabulary[1].right, 0);
  EXPECT_EQ(s.after.ids, (Ids{1, 0}));
  EXPECT_EQ(s.after.count, 2);
  EXPECT_EQ(s.counts.distinct, 1);
  EXPECT_EQ(s.counts.tied, 1);
  ASSERT_EQ(t.next.top.size(), 1u);
  EXPECT_EQ(t.next.top[0].count, 1);  // (啊啊, 啊), once
  EXPECT_EQ(t.next.top[0].left, 1);
}

TEST(Bpe, TiesGoToThePairThatOccursFirst) {
  // dcab on two lines: dc, ca and ab twice each; dc occurs first (place 0), so it is merged,
  // though ab is first in any alphabetical order; no pair spans the line break (b d)
  const auto t = learn("dcab\ndcab", 10);
  EXPECT_EQ(t.alphabet, "dcab");
  EXPECT_EQ(t.lines, 2);
  EXPECT_EQ(t.characters, 8);
  EXPECT_EQ(t.initial.sizes, (Ids{4, 4}));
  ASSERT_EQ(t.steps.size(), 3u);
  const auto& first = t.steps[0];
  EXPECT_EQ(first.counts.distinct, 3);
  EXPECT_EQ(first.counts.tied, 3);
  ASSERT_EQ(first.counts.top.size(), 3u);
  const Index places[] = {0, 1, 2};  // dc, ca, ab first occur at 0, 1, 2
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(first.counts.top[std::size_t(k)].count, 2);
    EXPECT_EQ(first.counts.top[std::size_t(k)].first, places[k]);
    EXPECT_EQ(first.counts.top[std::size_t(k)].left, k);
    EXPECT_EQ(first.counts.top[std::size_t(k)].right, k + 1);
  }
  EXPECT_EQ(first.left, 0);
  EXPECT_EQ(first.right, 1);
  EXPECT_EQ(first.at, (Ids{0, 4}));  // the second line's dc is the 5th token
  EXPECT_EQ(first.after.ids, (Ids{4, 2, 3, 4, 2, 3}));
  EXPECT_EQ(first.after.sizes, (Ids{3, 3}));
  EXPECT_EQ(t.vocabulary[5].text, "dca");
  EXPECT_EQ(t.vocabulary[6].text, "dcab");
  EXPECT_EQ(t.steps[2].after.ids, (Ids{6, 6}));
  EXPECT_EQ(t.next.distinct, 0);
  EXPECT_EQ(t.next.tied, 0);
  EXPECT_TRUE(t.next.top.empty());
}

TEST(Bpe, AMergeMakesANewMostFrequentPair) {
  // ab 4, bc 3, de 2; after ab is merged, (ab, c) occurs 3 times: a pair that did not exist
  const auto t = learn("abc\nabc\nabc\nab\nde\nde", 2);
  ASSERT_EQ(t.steps.size(), 2u);
  const auto& one = t.steps[0];
  ASSERT_EQ(one.counts.top.size(), 3u);
  EXPECT_EQ(one.counts.top[0].count, 4);
  EXPECT_EQ(one.counts.top[1].count, 3);
  EXPECT_EQ(one.counts.top[2].count, 2);
  EXPECT_EQ(one.id, 5);  // a b c d e, then ab
  const auto& two = t.steps[1];
  EXPECT_EQ(two.left, 5);
  EXPECT_EQ(two.right, 2);
  EXPECT_EQ(two.count, 3);
  for (const auto& p : one.counts.top) EXPECT_FALSE(p.left == 5);  // new: ab did not exist
  EXPECT_EQ(two.counts.top[1].count, 2);                           // de
  EXPECT_EQ(t.vocabulary[6].text, "abc");
  EXPECT_EQ(two.after.count, 8);  // abc, abc, abc, ab, d e, d e
}

TEST(Bpe, FromBytesTheFirstMergesRebuildACharacter) {
  // 明 is E6 98 8E, 月 E6 9C 88: E6 98, 98 8E, 8E E6, E6 9C and 9C 88 three times each; E6 98
  // first; then (E6 98, 8E) is 明 again
  const auto t = learn("明月明月\n明月", 3, "bytes");
  EXPECT_EQ(t.base, 256);
  EXPECT_EQ(t.alphabet, "");
  EXPECT_EQ(t.bytes, 18);
  EXPECT_EQ(t.characters, 6);
  EXPECT_EQ(t.initial.count, 18);
  EXPECT_EQ(t.initial.ids[0], 0xE6);
  EXPECT_EQ(t.initial.ids[1], 0x98);
  EXPECT_EQ(t.initial.ids[2], 0x8E);
  EXPECT_EQ(t.vocabulary[0xE6].hex, "E6");
  EXPECT_FALSE(t.vocabulary[0xE6].whole);
  EXPECT_EQ(t.vocabulary[0xE6].text, "");
  EXPECT_EQ(t.vocabulary['a'].text, "a");
  const auto& one = t.steps[0];
  EXPECT_EQ(one.counts.tied, 5);
  EXPECT_EQ(one.left, 0xE6);
  EXPECT_EQ(one.right, 0x98);
  EXPECT_EQ(one.count, 3);
  EXPECT_EQ(one.id, 256);
  EXPECT_EQ(t.vocabulary[256].hex, "E6 98");
  EXPECT_FALSE(t.vocabulary[256].whole);
  EXPECT_EQ(t.vocabulary[256].text, "");
  EXPECT_EQ(t.steps[1].left, 256);
  EXPECT_EQ(t.steps[1].right, 0x8E);
  EXPECT_EQ(t.vocabulary[257].text, "明");
  EXPECT_EQ(t.vocabulary[257].hex, "E6 98 8E");
  EXPECT_TRUE(t.vocabulary[257].whole);
  EXPECT_EQ(t.vocabulary[257].bytes, 3);
}

TEST(Bpe, PresplitPieces) {
  // letters, digits, spaces and the rest; a space run's last U+0020 goes with what follows
  const auto t = learn("I love you. We  123\t4.5%", 0, "characters", true);
  std::vector<std::string> pieces;
  std::size_t at = 0;
  for (const auto size : t.initial.sizes) {
    std::string piece;
    for (std::int32_t k = 0; k < size; ++k) {
      piece += t.vocabulary[std::size_t(t.initial.ids[at++])].text;
    }
    pieces.push_back(piece);
  }
  EXPECT_EQ(pieces, (std::vector<std::string>{"I", " love", " you", ".", " We", " ", " 123", "\t",
                                              "4", ".", "5", "%"}));
  EXPECT_EQ(t.segment_lines, (Ids(12, 0)));
  // CJK is letters, full-width punctuation and digits are not
  const auto zh = learn("你好，世界！１２３ 你好", 0, "characters", true);
  EXPECT_EQ(zh.initial.sizes, (Ids{2, 1, 2, 1, 3, 3}));
}

TEST(Bpe, LineBreaksAreBoundaries) {
  // "\r\n", "\r" and "\n" all end a line; an empty line has no token
  const auto t = learn("ab\r\nab\rab\n\nb", 1);
  EXPECT_EQ(t.lines, 5);
  EXPECT_EQ(t.characters, 7);
  EXPECT_EQ(t.initial.sizes, (Ids{2, 2, 2, 0, 1}));
  EXPECT_EQ(t.segment_lines, (Ids{0, 1, 2, 3, 4}));
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].counts.distinct, 1);  // only ab: no (b, a) across a line break
  EXPECT_EQ(t.steps[0].count, 3);
}

TEST(Bpe, EncodingTheLearnedTextGivesItsLastTokens) {
  for (const std::string start : {"characters", "bytes"}) {
    for (const bool presplit : {false, true}) {
      const std::string text = "the cat sat on the mat.\nthe rat sat on the hat.";
      const auto t = learn(text, 20, start, presplit);
      const auto e = attention::bpe_encode(attention::bpe_model(t), text);
      ASSERT_TRUE(e.ok()) << e.error;
      Ids ids;
      for (const auto& token : e.value.tokens) ids.push_back(std::int32_t(token.id));
      EXPECT_EQ(ids, t.steps.back().after.ids) << start << presplit;
      EXPECT_EQ(Index(e.value.applied.size()), Index(t.steps.size()));
    }
  }
}

TEST(Bpe, EncodingAnUnknownCharacter) {
  const auto t = learn("ab ab", 3);
  const auto e = attention::bpe_encode(attention::bpe_model(t), "abc ab");
  ASSERT_TRUE(e.ok()) << e.error;
  const auto& tokens = e.value.tokens;
  ASSERT_EQ(tokens.size(), 4u);  // ab was merged (twice); (ab, space) once only: not merged
  EXPECT_EQ(tokens[0].text, "ab");
  EXPECT_EQ(tokens[1].text, "c");
  EXPECT_FALSE(tokens[1].known);
  EXPECT_EQ(tokens[1].id, -1);
  EXPECT_EQ(tokens[1].hex, "63");
  EXPECT_EQ(e.value.unknown, 1);
  EXPECT_EQ(e.value.initial.ids, (Ids{0, 1, -1, 2, 0, 1}));
  // from bytes nothing is unknown
  const auto b = learn("ab ab", 3, "bytes");
  const auto eb = attention::bpe_encode(attention::bpe_model(b), "abc 中");
  ASSERT_TRUE(eb.ok()) << eb.error;
  EXPECT_EQ(eb.value.unknown, 0);
  EXPECT_EQ(eb.value.tokens.back().hex, "AD");  // 中 is E4 B8 AD, none of it merged
  EXPECT_FALSE(eb.value.tokens.back().whole);
  EXPECT_EQ(eb.value.tokens.back().text, "");
}

TEST(Bpe, Refusals) {
  const auto refused = [](const std::string& text, BpeOptions o) {
    return attention::bpe_learn(text, o).error;
  };
  BpeOptions o;
  EXPECT_EQ(refused("", o), "the text is empty");
  EXPECT_EQ(refused("\n\r\n", o), "the text has only line breaks");
  EXPECT_EQ(refused(std::string(2001, 'a'), o),
            "the text has 2001 characters (line breaks count); at most 2000 are read here, so that "
            "every token can be shown");
  EXPECT_TRUE(refused(std::string(2000, 'a'), o).empty());
  EXPECT_EQ(refused("a\xFF", o).rfind("the text is not UTF-8", 0), 0u);
  o.merges = -1;
  EXPECT_EQ(refused("ab", o), "merges is -1; it must be from 0 to 500");
  o.merges = 501;
  EXPECT_EQ(refused("ab", o), "merges is 501; it must be from 0 to 500");
  o.merges = 500;
  EXPECT_TRUE(refused("ab", o).empty());
  o.start = "words";
  EXPECT_EQ(refused("ab", o), "start is \"words\"; it must be \"characters\" or \"bytes\"");

  attention::BpeModel m;
  m.alphabet = "ab";
  m.merges = {{0, 1}, {2, 3}};  // token 3 is made by the second merge itself
  EXPECT_EQ(attention::bpe_encode(m, "ab").error,
            "merge 2's right token is 3; it must be from 0 to 2 (the tokens made before it)");
  m.merges = {{0, -1}};
  EXPECT_EQ(attention::bpe_encode(m, "ab").error,
            "merge 1's right token is -1; it must be from 0 to 1 (the tokens made before it)");
  m.merges = {};
  m.alphabet = "aba";
  EXPECT_EQ(attention::bpe_encode(m, "ab").error, "the alphabet holds a twice");
  m.alphabet = "a\nb";
  EXPECT_EQ(attention::bpe_encode(m, "ab").error,
            "the alphabet holds a line break, which is never a symbol");
  m.alphabet = "ab";
  m.start = "bytes";
  EXPECT_EQ(attention::bpe_encode(m, "ab").error,
            "the alphabet must be empty from bytes: the 256 bytes are the base");
  m.alphabet = "";
  EXPECT_EQ(attention::bpe_encode(m, "").error, "the text is empty");
  m.merges.assign(501, {0, 0});
  EXPECT_EQ(attention::bpe_encode(m, "ab").error, "there are 501 merges; at most 500 are read");
}

// ---- every case of bpe.json, written by tests/fixtures/bpe_reference.py ----

using nlohmann::json;

Ids ids_of(const json& j) { return j.get<Ids>(); }

void expect_counts(const attention::BpeCounts& c, const json& j, const std::string& where) {
  EXPECT_EQ(c.distinct, j["distinct"].get<Index>()) << where;
  EXPECT_EQ(c.tied, j["tied"].get<Index>()) << where;
  ASSERT_EQ(c.top.size(), j["top"].size()) << where;
  for (std::size_t k = 0; k < c.top.size(); ++k) {
    const json& p = j["top"][k];
    EXPECT_EQ(c.top[k].left, p["left"].get<Index>()) << where << " top " << k;
    EXPECT_EQ(c.top[k].right, p["right"].get<Index>()) << where << " top " << k;
    EXPECT_EQ(c.top[k].count, p["count"].get<Index>()) << where << " top " << k;
    EXPECT_EQ(c.top[k].first, p["first"].get<Index>()) << where << " top " << k;
  }
}

void expect_tokens(const attention::BpeTokens& t, const json& j, const std::string& where) {
  EXPECT_EQ(t.ids, ids_of(j["ids"])) << where;
  EXPECT_EQ(t.sizes, ids_of(j["sizes"])) << where;
  EXPECT_EQ(t.count, j["count"].get<Index>()) << where;
}

TEST(Bpe, EveryCaseOfThePythonReference) {
  std::ifstream file(std::string(FIXTURES_DIR) + "/bpe.json");
  ASSERT_TRUE(file) << "tests/fixtures/bpe.json";
  const json all = json::parse(file);
  ASSERT_GE(all["cases"].size(), 70u);
  for (const json& c : all["cases"]) {
    const std::string where = c["name"].get<std::string>() + " " + c["start"].get<std::string>() +
                              (c["presplit"].get<bool>() ? " presplit" : "");
    const auto t = learn(c["text"], c["merges"], c["start"], c["presplit"]);
    const json& x = c["expect"];
    EXPECT_EQ(t.alphabet, x["alphabet"].get<std::string>()) << where;
    EXPECT_EQ(t.base, x["base"].get<Index>()) << where;
    EXPECT_EQ(t.characters, x["characters"].get<Index>()) << where;
    EXPECT_EQ(t.bytes, x["bytes"].get<Index>()) << where;
    EXPECT_EQ(t.lines, x["lines"].get<Index>()) << where;
    EXPECT_EQ(t.segment_lines, ids_of(x["segment_lines"])) << where;
    expect_tokens(t.initial, x["initial"], where + " initial");
    expect_counts(t.next, x["next"], where + " next");
    ASSERT_EQ(t.steps.size(), x["steps"].size()) << where;
    for (std::size_t k = 0; k < t.steps.size(); ++k) {
      const auto& s = t.steps[k];
      const json& e = x["steps"][k];
      const std::string at = where + " merge " + std::to_string(k + 1);
      expect_counts(s.counts, e, at);
      EXPECT_EQ(s.left, e["left"].get<Index>()) << at;
      EXPECT_EQ(s.right, e["right"].get<Index>()) << at;
      EXPECT_EQ(s.id, e["id"].get<Index>()) << at;
      EXPECT_EQ(s.count, e["count"].get<Index>()) << at;
      EXPECT_EQ(s.replaced, e["replaced"].get<Index>()) << at;
      EXPECT_EQ(s.at, ids_of(e["at"])) << at;
      EXPECT_EQ(s.merged_at, ids_of(e["merged_at"])) << at;
      expect_tokens(s.after, e["after"], at);
    }
    ASSERT_EQ(t.vocabulary.size(), std::size_t(t.base) + x["made"].size()) << where;
    for (std::size_t k = 0; k < x["made"].size(); ++k) {
      const auto& v = t.vocabulary[std::size_t(t.base) + k];
      const json& e = x["made"][k];
      EXPECT_EQ(v.id, e["id"].get<Index>()) << where;
      EXPECT_EQ(v.text, e["text"].get<std::string>()) << where;
      EXPECT_EQ(v.hex, e["hex"].get<std::string>()) << where;
      EXPECT_EQ(v.whole, e["whole"].get<bool>()) << where;
      EXPECT_EQ(v.bytes, e["bytes"].get<Index>()) << where;
      EXPECT_EQ(v.left, e["left"].get<Index>()) << where;
      EXPECT_EQ(v.right, e["right"].get<Index>()) << where;
    }
    const auto model = attention::bpe_model(t);
    for (const json& line : c["encoded"]) {
      const auto e = attention::bpe_encode(model, line["text"].get<std::string>());
      ASSERT_TRUE(e.ok()) << where << ": " << e.error;
      const json& w = line["expect"];
      const std::string at = where + " encoding " + line["text"].get<std::string>();
      EXPECT_EQ(e.value.count, w["count"].get<Index>()) << at;
      EXPECT_EQ(e.value.unknown, w["unknown"].get<Index>()) << at;
      EXPECT_EQ(e.value.characters, w["characters"].get<Index>()) << at;
      EXPECT_EQ(e.value.bytes, w["bytes"].get<Index>()) << at;
      EXPECT_EQ(e.value.segment_lines, ids_of(w["segment_lines"])) << at;
      expect_tokens(e.value.initial, w["initial"], at);
      ASSERT_EQ(e.value.tokens.size(), w["tokens"].size()) << at;
      for (std::size_t k = 0; k < e.value.tokens.size(); ++k) {
        const auto& token = e.value.tokens[k];
        const json& j = w["tokens"][k];
        EXPECT_EQ(token.id, j["id"].get<Index>()) << at;
        EXPECT_EQ(token.text, j["text"].get<std::string>()) << at;
        EXPECT_EQ(token.hex, j["hex"].get<std::string>()) << at;
        EXPECT_EQ(token.whole, j["whole"].get<bool>()) << at;
        EXPECT_EQ(token.known, j["known"].get<bool>()) << at;
        EXPECT_EQ(token.segment, j["segment"].get<Index>()) << at;
      }
      ASSERT_EQ(e.value.applied.size(), w["applied"].size()) << at;
      for (std::size_t k = 0; k < e.value.applied.size(); ++k) {
        EXPECT_EQ(e.value.applied[k].merge, w["applied"][k]["merge"].get<Index>()) << at;
        EXPECT_EQ(e.value.applied[k].id, w["applied"][k]["id"].get<Index>()) << at;
        EXPECT_EQ(e.value.applied[k].replaced, w["applied"][k]["replaced"].get<Index>()) << at;
      }
    }
  }
}

}  // namespace
