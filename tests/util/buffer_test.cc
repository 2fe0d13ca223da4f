// Buffer: growth keeps bytes and alignment; views share another buffer's
// bytes until something would write to them, which copies them first.
#include "parq/util/buffer.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

namespace parq {
namespace {

std::shared_ptr<Buffer> page_of(size_t n) {
  auto page = std::make_shared<Buffer>(n);
  for (size_t i = 0; i < n; ++i) page->data()[i] = static_cast<uint8_t>(i);
  return page;
}

TEST(Buffer, GrowthKeepsBytesAndAlignment) {
  Buffer b;
  for (int i = 0; i < 1000; ++i) b.append_value(i);
  EXPECT_EQ(b.size(), 4000u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % Buffer::kAlignment, 0u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(b.data_as<int>()[i], i);
}

TEST(Buffer, AViewReadsTheOwnersBytesInPlace) {
  auto page = page_of(256);
  const Buffer view = Buffer::view(page, page->data() + 64, 100);
  EXPECT_TRUE(view.is_view());
  EXPECT_EQ(view.size(), 100u);
  EXPECT_EQ(view.data(), page->data() + 64);
  EXPECT_EQ(page.use_count(), 2);
}

TEST(Buffer, AViewKeepsItsOwnerAlive) {
  auto page = page_of(256);
  std::weak_ptr<Buffer> watch = page;
  Buffer view = Buffer::view(page, page->data() + 10, 20);
  page.reset();
  ASSERT_FALSE(watch.expired());
  EXPECT_EQ(std::as_const(view).data()[0], 10);
  Buffer moved = std::move(view);
  EXPECT_FALSE(watch.expired());
  moved.clear();
  EXPECT_TRUE(watch.expired());
  EXPECT_FALSE(moved.is_view());
  EXPECT_TRUE(moved.empty());
}

TEST(Buffer, WritingThroughAViewCopiesFirst) {
  auto page = page_of(256);
  {
    Buffer view = Buffer::view(page, page->data() + 8, 16);
    view.data()[0] = 0xFF;  // non-const access detaches
    EXPECT_FALSE(view.is_view());
    EXPECT_EQ(page->data()[8], 8);
    EXPECT_EQ(view.data()[0], 0xFF);
    EXPECT_EQ(view.data()[1], 9);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(view.data()) % Buffer::kAlignment, 0u);
  }
  {
    // Appending to a view must not write over the owner's next bytes.
    Buffer view = Buffer::view(page, page->data(), 16);
    view.append_value(uint8_t{0xAA});
    EXPECT_EQ(page->data()[16], 16);
    ASSERT_EQ(view.size(), 17u);
    EXPECT_EQ(view.data()[15], 15);
    EXPECT_EQ(view.data()[16], 0xAA);
  }
  {
    // resize within the view's size writes nothing yet, but callers write
    // after it: it detaches too.
    Buffer view = Buffer::view(page, page->data(), 32);
    view.resize(8);
    EXPECT_FALSE(view.is_view());
    EXPECT_EQ(view.data()[7], 7);
  }
  EXPECT_EQ(page.use_count(), 1);
}

TEST(Buffer, CopyingAViewOwnsItsBytes) {
  auto page = page_of(64);
  const Buffer view = Buffer::view(page, page->data(), 64);
  const Buffer copy = view;
  EXPECT_FALSE(copy.is_view());
  EXPECT_NE(copy.data(), view.data());
  EXPECT_EQ(copy.view(), view.view());
}

}  // namespace
}  // namespace parq
