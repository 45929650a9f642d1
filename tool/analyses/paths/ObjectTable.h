#pragma once
// The objects a function's access paths name (AccessPath.h), one table
// per function, keyed by PathKey.
//
// The buffers a compute function can touch, as abstract objects, and what
// the names in its body may refer to (the may-alias / points-to facts).
//
// An object is a buffer parameter (`Buffer<T>& a`, `Buffer<T>* p` names the
// object `*p`; for a lambda given to Accelerator::compute, a buffer it
// captures), a buffer member of a parameter (`g.grid`), or a buffer the
// function creates (`Buffer<T> tmp(n)`). References and pointers are
// variables that point to sets of objects; the set is exact (one object) or
// not, and a buffer reached through something the analysis cannot follow (an
// element of a container, say) resolves to every object of its element type,
// marked inexact, so that nothing is decided on a guess.

#include "analyses/paths/AccessPath.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ferry {

using ObjectId = unsigned;

enum class ObjectKind { Parameter, ParameterMember, Local };

struct BufferObject {
  ObjectId Id = 0;
  ObjectKind Kind = ObjectKind::Local;
  /// How the rewritten source names it where it is in scope (`a`, `*p`, `g.grid`).
  std::string Spelling;
  const clang::ValueDecl *Decl = nullptr;
  /// For a ParameterMember, the parameter it is a member of; for a member
  /// of `this`, the function itself (see ObjectTable::thisKey).
  const clang::ValueDecl *Base = nullptr;
  /// For a member (of a parameter, a local, `this`): the path from Base to
  /// it (`grid_.cur`: {grid_, cur}); Decl is its last member.
  FieldPath Path;
  clang::QualType Element;
  /// Objects that may be this one at run time (parameters of one element type
  /// may be bound to the same buffer: `run(cc, a, a)`).
  std::set<ObjectId> MayAlias;

  /// A buffer with static storage (a global, a static member or a static
  /// local), or the buffer a global pointer points to: it outlives the call.
  bool StaticStorage = false;
  /// Every buffer of a standard container (ElementSteps.h): the object
  /// stands for all of them, so it is only ever updated weakly, and its
  /// transfers are the runtime's guarded forms, element by element.
  bool Elements = false;

  bool callerVisible() const { return Kind != ObjectKind::Local; }
};

/// Where an expression of buffer type may point.
struct ObjectRefs {
  std::set<ObjectId> Ids;
  /// False when the set may name several buffers: a guess, or the
  /// elements of a container.
  bool Exact = true;
  /// The set is a guess (anything of the element type): the buffer may be
  /// one the table has no object for.
  bool Guessed = false;
  /// For a guess: the element type of the buffers it may be (null: of any
  /// type), so that the run-time state can reach the ones no object stands
  /// for (ComputeContext::fromDeviceAllOf).
  clang::QualType Element;

  bool single() const { return Exact && Ids.size() == 1; }
};

using PointsTo = std::map<const clang::ValueDecl *, std::set<ObjectId>>;

/// In a PointsTo set: the name may denote a buffer no object stands for
/// (bound to `grid_.next`, a member of a member). ObjectTable::resolve turns
/// it back into a guess; every other reader strips it (pointsToObjects).
constexpr ObjectId UnnamedObject = ~ObjectId(0);

/// What a name bound to `R` may denote, as a PointsTo set.
std::set<ObjectId> pointsToSet(const ObjectRefs &R);
/// A PointsTo set as references: the objects, and a guess of `Element`
/// where the set holds UnnamedObject.
ObjectRefs pointsToObjects(const std::set<ObjectId> &Set,
                           clang::QualType Element);

class ObjectTable {
public:
  /// Builds the table for F: its buffer parameters, their buffer members used
  /// in the body, its local buffers, and the global buffers it names or
  /// `Reached` lists (those the functions it calls name); and the entry
  /// points-to facts.
  explicit ObjectTable(const clang::FunctionDecl *F,
                       const std::set<const clang::VarDecl *> &Reached = {});

  const clang::FunctionDecl *function() const { return Function; }
  const std::vector<BufferObject> &objects() const { return Objects; }
  const BufferObject &object(ObjectId Id) const { return Objects[Id]; }
  const PointsTo &entryPointsTo() const { return Entry; }
  /// The object a local buffer declaration creates.
  const BufferObject *localFor(const clang::VarDecl *V) const;
  /// The object for the buffer the path names below `Base` (a variable, or
  /// thisKey() for `this`), or null when the table has none.
  const BufferObject *memberFor(const clang::ValueDecl *Base,
                                const FieldPath &Path) const;
  /// The objects for the buffer members of a local object of class type
  /// (`Sim sim(n);`), which its declaration creates.
  std::vector<ObjectId> membersOfLocal(const clang::VarDecl *V) const;
  /// How the table keys the members of `*this` (MemberSteps.h).
  const clang::ValueDecl *thisKey() const { return Function; }
  /// The object standing for the buffers of the container `E` names (`vs`,
  /// `*pv`, `this->levels_`, `sim.levels`), or null.
  const BufferObject *containerFor(const clang::Expr *E) const;
  /// The object for the buffers of a container a declaration creates.
  const BufferObject *containerLocal(const clang::VarDecl *V) const;

  /// Every object of element type `Element`, inexact: a buffer Ferry cannot
  /// name (one in a container, say).
  ObjectRefs anyBufferOf(clang::QualType Element) const {
    return anyOfType(Element);
  }
  /// Where `E` (an lvalue of Buffer type, or a pointer to Buffer) may point.
  ObjectRefs resolve(const clang::Expr *E, const PointsTo &Facts) const;
  /// Every object the set may touch, following MayAlias.
  std::set<ObjectId> withAliases(const std::set<ObjectId> &Ids) const;
  /// The buffers inside an object of class type that `E` names (`g` or `*pg`
  /// for `struct Grids { Buffer<float> cur, next; }`, `this->grid_`): each
  /// buffer at any depth of members held by value, as resolve() would give
  /// `g.cur`, inexact where the table has no object for it; a member holding
  /// buffers no path spells, a guess of the type it holds. Empty when the
  /// class has no buffer members. With `Paths`, also the path below `E`
  /// each entry is (same order).
  std::vector<ObjectRefs> membersOf(const clang::Expr *E, const PointsTo &Facts,
                                    std::vector<FieldPath> *Paths = nullptr) const;

private:
  ObjectId add(ObjectKind Kind, std::string Spelling, const clang::ValueDecl *D,
               clang::QualType Element);
  ObjectRefs anyOfType(clang::QualType Element) const;
  /// The object for the member Path of Base, added on first use.
  ObjectId memberObject(const clang::ValueDecl *Base, const FieldPath &Path,
                        ObjectKind Kind, const std::string &Prefix);
  /// The root a member expression's path starts from, as ByPath keys it,
  /// or null.
  const clang::ValueDecl *memberBase(const clang::Expr *Root) const;
  /// The key of the buffer `E` names as a member (`this->grid_.cur`), or
  /// false.
  bool memberKey(const clang::Expr *E, const clang::ValueDecl *&Base,
                 FieldPath &Path) const;

  std::vector<BufferObject> Objects;
  /// Each object but a parameter's own (those are in Entry), by its access
  /// path: a local buffer or a container variable (parameter, local,
  /// captured) by itself, {V, {}}; a member of a variable, or of `this`
  /// (keyed by Function), by its root and members, {g, {grid, cur}}.
  std::map<PathKey, ObjectId> ByPath;
  const clang::FunctionDecl *Function = nullptr;
  PointsTo Entry;
};

/// The buffer expression a raw element pointer, iterator or element
/// reference comes from (`b.data() + 4`, `b.begin()`, `&b[i]`, `b[i]`), or
/// null when it comes from no buffer.
const clang::Expr *rawPointerSource(const clang::Expr *E);

/// The buffers a raw element pointer, iterator or element reference may
/// point into: from data()/begin()/end()/&b[i] directly, or through local
/// pointers and references bound to those (with arithmetic, `?:`, and the
/// iterators std algorithms return into their ranges). False when `E` is no
/// such pointer as far as the facts know.
bool rawPointerTargets(const clang::Expr *E, const ObjectTable &Table,
                       const PointsTo &Facts, std::set<ObjectId> &Out);

/// Applies what `S` does to references and pointers that alias buffers:
/// `auto &from = g % 2 ? a : b;`, `Buffer<T> *p = &a;`, `p = q;`,
/// `std::swap(p, q);`, raw element pointers from `data()`/`begin()`. Only
/// pointer facts are touched; element accesses are HostAccess's business.
/// Flow-sensitive: the arms of an if, a switch, `?:`, `&&` and `||` are
/// joined, a loop is iterated to a fixpoint, and the states at its breaks
/// are joined into its exit.
void applyAliasing(const clang::Stmt *S, const ObjectTable &Table,
                   PointsTo &Facts);

/// The facts at the head of a loop (before its condition, on every
/// iteration) when `Before` holds on entry: what an event in its body sees.
PointsTo loopHeadFacts(const clang::Stmt *Loop, const ObjectTable &Table,
                       const PointsTo &Before);

/// Joins B into A (the union of each name's targets).
void joinFacts(PointsTo &A, const PointsTo &B);

/// `Buffer<T> *name[N]`: an array whose elements point to buffers.
bool isBufferPointerArray(clang::QualType T);
/// An array of buffer pointers, or a parameter declared as one (adjusted to
/// a pointer to its first element).
bool namesBufferPointerArray(const clang::ValueDecl *D);

/// data(), begin(), end(), cbegin(), cend() of a buffer, or of a pointer
/// to one (`p->data()`): calls that hand out the elements.
bool isBufferElementAccessor(const clang::CXXMemberCallExpr *MC);

} // namespace ferry
