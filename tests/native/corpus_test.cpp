// corpus_test.cpp: the corpus (corpus.hpp) on a tiny corpus made by hand: a fortune file's
// bodies (titles and authors in colour dropped, only Han and the structural punctuation kept),
// the vocabulary's ids (the end token 0, the unknown token 1, then the characters seen at least
// twice, the most frequent first, ties by code point), a character seen once or never is
// unknown, the stream of ids, the held-out and validation splits by index, UTF-8 both ways, and
// the package's misprint corrected where it is printed.
#include "corpus.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using attention::Text;

TEST(Corpus, AFortuneFilesBodiesWithoutTitlesAuthorsOrOtherCharacters) {
  const std::string file =
      "\x1b[31m静夜思\x1b[0m\n\x1b[32m李白\x1b[0m\n床前明月光，\n疑是地上霜。\n%\n"
      "\x1b[31m题\x1b[0m\n月光 照 地上。abc!\n%\n%\n";
  const std::vector<Text> bodies = attention::fortune_bodies(file);
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[0], U"床前明月光，疑是地上霜。");
  EXPECT_EQ(bodies[1], U"月光照地上。");
  EXPECT_EQ(attention::regular_line(bodies[0]), 5);
  EXPECT_EQ(attention::regular_line(bodies[1]), 0);  // one line is not a regular poem
}

// fortunes-zh 2.98's tang300 prints 樵人归尽欲 in its tenth poem; 唐诗三百首 prints 樵人归欲尽.
TEST(Corpus, TheTangPoemsMisprintIsCorrectedWhereThePackagePrintsIt) {
  std::vector<Text> poems(9, U"床前明月光。");
  poems.push_back(U"夕阳度西岭，群壑倏已暝。松月生夜凉，风泉满清听。樵人归尽欲，烟鸟栖初定。");
  EXPECT_EQ(attention::correct(poems, attention::kTang300Errata), 1u);
  EXPECT_EQ(poems[9], U"夕阳度西岭，群壑倏已暝。松月生夜凉，风泉满清听。樵人归欲尽，烟鸟栖初定。");
  EXPECT_EQ(poems[8], U"床前明月光。");
  // printed right (a package that fixed it), or a shorter file: left as it is
  EXPECT_EQ(attention::correct(poems, attention::kTang300Errata), 0u);
  EXPECT_EQ(poems[9], U"夕阳度西岭，群壑倏已暝。松月生夜凉，风泉满清听。樵人归欲尽，烟鸟栖初定。");
  std::vector<Text> few(3, U"樵人归尽欲，");
  EXPECT_EQ(attention::correct(few, attention::kTang300Errata), 0u);
  EXPECT_EQ(few[2], U"樵人归尽欲，");
}

TEST(Corpus, TheVocabularysIdsByHand) {
  // counts: 月 3, 光 3, 上 2, 。 1, 天 1; 光 (U+5149) before 月 (U+6708) at the same count
  const attention::Vocabulary v = attention::build_vocabulary({U"月光月光月", U"上上光。天"});
  ASSERT_EQ(v.chars.size(), 5u);
  EXPECT_EQ(v.chars[0], U'\n');
  EXPECT_EQ(v.chars[1], U'\uFFFD');
  EXPECT_EQ(v.chars[2], U'光');
  EXPECT_EQ(v.chars[3], U'月');
  EXPECT_EQ(v.chars[4], U'上');
  EXPECT_EQ(v.id(U'光'), 2);
  EXPECT_EQ(v.id(U'月'), 3);
  EXPECT_EQ(v.id(U'上'), 4);
  // seen once, and never seen: the unknown token
  EXPECT_EQ(v.id(U'。'), attention::kUnknownToken);
  EXPECT_EQ(v.id(U'海'), attention::kUnknownToken);
  EXPECT_EQ(attention::kUnknownToken, 1);
  EXPECT_EQ(attention::kEndToken, 0);
  // every poem, then the end token
  EXPECT_EQ(attention::encode(v, {U"月上海", U"光"}),
            (std::vector<std::int32_t>{3, 4, 1, 0, 2, 0}));
  EXPECT_TRUE(attention::encode(v, {}).empty());
}

TEST(Corpus, EveryTenthPoemIsHeldOutAndTheOneBeforeItValidates) {
  for (std::size_t poem = 0; poem < 40; ++poem) {
    const auto want = poem % 10 == 9   ? attention::Split::kHeldOut
                      : poem % 10 == 8 ? attention::Split::kValidation
                                       : attention::Split::kTrain;
    EXPECT_EQ(attention::split_of(poem), want) << poem;
  }
  EXPECT_EQ(attention::split_of(9), attention::Split::kHeldOut);
  EXPECT_EQ(attention::split_of(18), attention::Split::kValidation);
  EXPECT_EQ(attention::split_of(10), attention::Split::kTrain);
}

TEST(Corpus, Utf8BothWays) {
  const std::string s = "a\xC3\xA9\xE6\x9C\x88\xF0\xA0\x80\x80";  // a, é, 月, U+20000
  const Text t = attention::from_utf8(s);
  EXPECT_EQ(t, (Text{U'a', U'\u00E9', U'月', U'\U00020000'}));
  EXPECT_EQ(attention::to_utf8(t), s);
}

}  // namespace
