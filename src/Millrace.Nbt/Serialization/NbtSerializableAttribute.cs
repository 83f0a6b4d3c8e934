namespace Millrace.Nbt.Serialization;

/// <summary>
/// Marks a partial class, record or struct whose public settable (or init-only) properties map to the named tags
/// of a compound. A source generator implements <see cref="INbtSerializable{TSelf}"/> for it: reads go straight from
/// a <see cref="Binary.NbtPullReader"/> and writes straight to a <see cref="Binary.NbtWriter"/>, with no tree and
/// no reflection, so it works under NativeAOT and trimming.
/// </summary>
/// <remarks>
/// Members may be <see cref="bool"/> (a byte 0 or 1), <see cref="sbyte"/>, <see cref="byte"/>, <see cref="short"/>,
/// <see cref="int"/>, <see cref="long"/>, <see cref="float"/>, <see cref="double"/>, <see cref="string"/>, enums
/// (stored as their underlying integer), <c>byte[]</c>, <c>int[]</c>, <c>long[]</c>, other <c>[NbtSerializable]</c>
/// types (compounds), nullable versions of all of these (a null member is an absent tag), and <c>List&lt;T&gt;</c>
/// or <c>T[]</c> of them (lists). Tags the type does not know are skipped on read.
/// </remarks>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, Inherited = false)]
public sealed class NbtSerializableAttribute : Attribute;
