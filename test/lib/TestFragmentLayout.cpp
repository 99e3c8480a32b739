//===- TestFragmentLayout.cpp - Which lane holds which element ---*- C++
//-*-===//
//
// Part of the mp project: automatic mixed precision for MLIR.
//
//===----------------------------------------------------------------------===//
//
// mp-test-fragment-layout evaluates, for each of the 32 lanes of a warp, the
// per-lane code that mp-gpu-vector-to-mma builds around each mma.sync
// (nvgpu.mma.sync for f16, nvvm.mma.sync for bf16): it replaces gpu.lane_id
// by the lane, evaluates the index expressions (affine.apply, constants) and
// follows every element of the A, B and C operands back to the load it comes
// from (ldmatrix as the PTX ISA defines it, of 1, 2 or 4 matrices, C through
// the K loop that carries it), and every element of the result D to the store
// it goes to. It prints
//   mma 0 A lane 5: 1,2 1,3 9,2 9,3 1,10 1,11 9,10 9,11
// (row,column of the loaded buffer, in the ISA's element order a0..a7;
// B's rows are K), one line per operand and lane, for a script to compare
// with the PTX ISA's fragment tables. Only the evaluation is shared with the
// compiler (MLIR's affine folding); the expected layout is not.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
/// A (row, column) of a 2-D buffer, or nothing when the element's origin is
/// not a load or store this test understands.
using Coord = std::optional<std::pair<int64_t, int64_t>>;

struct TestFragmentLayoutPass
    : public PassWrapper<TestFragmentLayoutPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestFragmentLayoutPass)

  StringRef getArgument() const final { return "mp-test-fragment-layout"; }
  StringRef getDescription() const final {
    return "Print, per lane, the buffer elements each mma.sync operand and "
           "result element comes from or goes to";
  }
  void runOnOperation() override;
};
} // namespace

/// The value of index `value` in lane `lane`.
static std::optional<int64_t> evaluate(Value value, int64_t lane) {
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return c;
  if (value.getDefiningOp<gpu::LaneIdOp>())
    return lane;
  // One warp per block here: thread x is the lane, the rest are 0.
  if (auto thread = value.getDefiningOp<gpu::ThreadIdOp>())
    return thread.getDimension() == gpu::Dimension::x ? lane : 0;
  if (value.getDefiningOp<gpu::BlockIdOp>())
    return 0;
  auto apply = value.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return std::nullopt;
  Builder b(value.getContext());
  SmallVector<Attribute> operands;
  for (Value operand : apply.getMapOperands()) {
    std::optional<int64_t> v = evaluate(operand, lane);
    if (!v)
      return std::nullopt;
    operands.push_back(b.getIndexAttr(*v));
  }
  SmallVector<Attribute> results;
  if (failed(apply.getAffineMap().constantFold(operands, results)))
    return std::nullopt;
  return cast<IntegerAttr>(results[0]).getInt();
}

/// The buffer element `(indices) + (0, offset)` in lane `lane`.
static Coord element(ValueRange indices, int64_t offset, int64_t lane) {
  if (indices.size() != 2)
    return std::nullopt;
  std::optional<int64_t> row = evaluate(indices[0], lane);
  std::optional<int64_t> col = evaluate(indices[1], lane);
  if (!row || !col)
    return std::nullopt;
  return std::make_pair(*row, *col + offset);
}

/// The first element (row-major) and the number of elements of the slice of
/// `type` at static `position` (a prefix of its indices).
static std::pair<int64_t, int64_t> getSlice(VectorType type,
                                            ArrayRef<int64_t> position) {
  int64_t first = 0, size = 1, count = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (d < static_cast<int64_t>(position.size()))
      first += position[d] * size;
    else
      count *= type.getDimSize(d);
    size *= type.getDimSize(d);
  }
  return {first, count};
}

/// The elements of `value` (a scalar or a vector, in row-major order) as
/// `leaf` names them, followed through the ops that move elements around:
/// from_elements, to_elements, extract, bitcast (a 32-bit register stands
/// for the two 16-bit elements it packs). Unknown origins are nullopt.
template <typename T>
static SmallVector<T>
trace(Value value, function_ref<std::optional<SmallVector<T>>(Value)> leaf) {
  if (std::optional<SmallVector<T>> elements = leaf(value))
    return *elements;
  Operation *op = value.getDefiningOp();
  if (auto fromElements = dyn_cast_or_null<vector::FromElementsOp>(op)) {
    SmallVector<T> all;
    for (Value e : fromElements.getElements())
      llvm::append_range(all, trace<T>(e, leaf));
    return all;
  }
  if (auto toElements = dyn_cast_or_null<vector::ToElementsOp>(op)) {
    SmallVector<T> all = trace<T>(toElements.getSource(), leaf);
    int64_t n = toElements.getNumResults();
    int64_t group = static_cast<int64_t>(all.size()) / n;
    int64_t k = cast<OpResult>(value).getResultNumber();
    if (group * n == static_cast<int64_t>(all.size()))
      return SmallVector<T>(all.begin() + k * group,
                            all.begin() + (k + 1) * group);
  }
  if (auto insert = dyn_cast_or_null<vector::InsertOp>(op)) {
    auto type = cast<VectorType>(insert.getDest().getType());
    SmallVector<T> all = trace<T>(insert.getDest(), leaf);
    SmallVector<T> part = trace<T>(insert.getValueToStore(), leaf);
    ArrayRef<int64_t> position = insert.getStaticPosition();
    if (static_cast<int64_t>(all.size()) == type.getNumElements() &&
        !llvm::is_contained(position, ShapedType::kDynamic)) {
      int64_t first = getSlice(type, position).first;
      if (first + static_cast<int64_t>(part.size()) <=
          static_cast<int64_t>(all.size())) {
        llvm::copy(part, all.begin() + first);
        return all;
      }
    }
  }
  // Rows (along the leading dimension) of either input, by the mask.
  if (auto shuffle = dyn_cast_or_null<vector::ShuffleOp>(op)) {
    SmallVector<T> first = trace<T>(shuffle.getV1(), leaf);
    SmallVector<T> second = trace<T>(shuffle.getV2(), leaf);
    int64_t rows = shuffle.getV1VectorType().getDimSize(0);
    int64_t group = static_cast<int64_t>(first.size()) / rows;
    SmallVector<T> all;
    for (int64_t position : shuffle.getMask()) {
      ArrayRef<T> from = position < rows ? first : second;
      int64_t row = position < rows ? position : position - rows;
      llvm::append_range(all, from.slice(row * group, group));
    }
    return all;
  }
  if (auto bitcast = dyn_cast_or_null<vector::BitCastOp>(op))
    return trace<T>(bitcast.getSource(), leaf);
  // A chain of K steps of one tile: each element of an mma's result sits
  // where the same element of its accumulator does.
  if (auto mma = dyn_cast_or_null<nvgpu::MmaSyncOp>(op))
    return trace<T>(mma.getMatrixC(), leaf);
  if (auto value = dyn_cast_or_null<LLVM::ExtractValueOp>(op))
    if (auto mma = value.getContainer().getDefiningOp<NVVM::MmaOp>())
      return trace<T>(mma.getOperandC()[value.getPosition()[0]], leaf);
  // Loop-carried values (accumulators kept in registers across K): an
  // iteration argument is its initial value, a result the value yielded.
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (OpOperand *init = loop.getTiedLoopInit(arg))
        return trace<T>(init->get(), leaf);
  if (auto loop = dyn_cast_or_null<scf::ForOp>(op))
    return trace<T>(
        loop.getYieldedValues()[cast<OpResult>(value).getResultNumber()], leaf);
  if (auto extract = dyn_cast_or_null<vector::ExtractOp>(op)) {
    auto type = cast<VectorType>(extract.getSource().getType());
    SmallVector<T> all = trace<T>(extract.getSource(), leaf);
    int64_t group = static_cast<int64_t>(all.size()) / type.getNumElements();
    ArrayRef<int64_t> position = extract.getStaticPosition();
    if (group * type.getNumElements() == static_cast<int64_t>(all.size()) &&
        !llvm::is_contained(position, ShapedType::kDynamic)) {
      auto [first, count] = getSlice(type, position);
      return SmallVector<T>(all.begin() + first * group,
                            all.begin() + (first + count) * group);
    }
  }
  int64_t n = 1;
  if (auto type = dyn_cast<VectorType>(value.getType()))
    n = type.getNumElements();
  return SmallVector<T>(n, T());
}

/// The elements lane `lane` receives from `load`, as the PTX ISA defines
/// ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16: lane 8i + r gives the
/// address of row r of matrix i (8 consecutive elements); register i of lane
/// l holds row l/4, elements 2(l%4) and 2(l%4)+1 of matrix i, or with .trans
/// element l/4 of rows 2(l%4) and 2(l%4)+1.
static SmallVector<Coord> ldmatrix(nvgpu::LdMatrixOp load, int64_t lane) {
  SmallVector<Coord> coords;
  for (int64_t i = 0; i < load.getNumTiles(); ++i) {
    for (int64_t j = 0; j < 2; ++j) {
      int64_t row = load.getTranspose() ? 2 * (lane % 4) + j : lane / 4;
      int64_t column = load.getTranspose() ? lane / 4 : 2 * (lane % 4) + j;
      coords.push_back(element(load.getIndices(), column, 8 * i + row));
    }
  }
  return coords;
}

/// Where each element of `value` was loaded from in lane `lane`.
static SmallVector<Coord> sources(Value value, int64_t lane) {
  return trace<Coord>(value, [&](Value v) -> std::optional<SmallVector<Coord>> {
    if (auto load = v.getDefiningOp<nvgpu::LdMatrixOp>())
      return ldmatrix(load, lane);
    if (auto load = v.getDefiningOp<memref::LoadOp>())
      return SmallVector<Coord>{element(load.getIndices(), 0, lane)};
    if (auto load = v.getDefiningOp<vector::LoadOp>()) {
      SmallVector<Coord> coords;
      for (int64_t k = 0, e = load.getVectorType().getNumElements(); k < e; ++k)
        coords.push_back(element(load.getIndices(), k, lane));
      return coords;
    }
    return std::nullopt;
  });
}

/// Where each element of the result of `mma` is stored in lane `lane`, in
/// the result's element order.
static SmallVector<Coord> destinations(Operation *mma, int64_t numElements,
                                       int64_t lane) {
  using Index = std::optional<int64_t>;
  auto fromResult = [&](Value v) -> std::optional<SmallVector<Index>> {
    if (v.getDefiningOp() == mma && isa<VectorType>(v.getType())) {
      SmallVector<Index> all;
      for (int64_t i = 0; i < numElements; ++i)
        all.push_back(i);
      return all;
    }
    if (auto value = v.getDefiningOp<LLVM::ExtractValueOp>())
      if (value.getContainer().getDefiningOp() == mma)
        return SmallVector<Index>{value.getPosition()[0]};
    return std::nullopt;
  };
  SmallVector<Coord> coords(numElements);
  mma->getParentOfType<func::FuncOp>().walk([&](vector::StoreOp store) {
    SmallVector<Index> indices =
        trace<Index>(store.getValueToStore(), fromResult);
    for (auto [k, index] : llvm::enumerate(indices))
      if (index && *index < numElements)
        coords[*index] = element(store.getIndices(), k, lane);
  });
  return coords;
}

static void print(llvm::raw_ostream &os, int64_t mma, StringRef operand,
                  int64_t lane, ArrayRef<Coord> coords) {
  os << "mma " << mma << " " << operand << " lane " << lane << ":";
  for (const Coord &c : coords) {
    if (c)
      os << " " << c->first << "," << c->second;
    else
      os << " ?";
  }
  os << "\n";
}

void TestFragmentLayoutPass::runOnOperation() {
  llvm::raw_ostream &os = llvm::outs();
  int64_t index = 0;
  getOperation()->walk([&](Operation *op) {
    SmallVector<Value> a, b, c;
    if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
      a = {mma.getMatrixA()};
      b = {mma.getMatrixB()};
      c = {mma.getMatrixC()};
    } else if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
      a = llvm::to_vector(mma.getOperandA());
      b = llvm::to_vector(mma.getOperandB());
      c = llvm::to_vector(mma.getOperandC());
    } else {
      return;
    }
    auto operand = [](ArrayRef<Value> registers, int64_t lane) {
      SmallVector<Coord> coords;
      for (Value reg : registers)
        llvm::append_range(coords, sources(reg, lane));
      return coords;
    };
    for (int64_t lane = 0; lane < 32; ++lane) {
      SmallVector<Coord> accumulator = operand(c, lane);
      print(os, index, "A", lane, operand(a, lane));
      print(os, index, "B", lane, operand(b, lane));
      print(os, index, "C", lane, accumulator);
      print(os, index, "D", lane, destinations(op, accumulator.size(), lane));
    }
    ++index;
  });
}

namespace mlir {
namespace mp {
void registerTestFragmentLayoutPass() {
  PassRegistration<TestFragmentLayoutPass>();
}
} // namespace mp
} // namespace mlir
