namespace Millrace.Nbt.Tags;

/// <summary>The NBT tag types, by their wire id.</summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Naming", "CA1720:Identifier contains type name", Justification = "These are the NBT specification's names for its tag types.")]
public enum NbtTagType : byte
{
    /// <summary>Ends a compound; the element type of an empty list.</summary>
    End = 0,

    /// <summary>A signed 8-bit integer.</summary>
    Byte = 1,

    /// <summary>A signed 16-bit integer.</summary>
    Short = 2,

    /// <summary>A signed 32-bit integer.</summary>
    Int = 3,

    /// <summary>A signed 64-bit integer.</summary>
    Long = 4,

    /// <summary>A 32-bit IEEE 754 number.</summary>
    Float = 5,

    /// <summary>A 64-bit IEEE 754 number.</summary>
    Double = 6,

    /// <summary>An array of signed bytes.</summary>
    ByteArray = 7,

    /// <summary>A string.</summary>
    String = 8,

    /// <summary>A list of unnamed tags of one type.</summary>
    List = 9,

    /// <summary>Named tags, in insertion order.</summary>
    Compound = 10,

    /// <summary>An array of signed 32-bit integers.</summary>
    IntArray = 11,

    /// <summary>An array of signed 64-bit integers.</summary>
    LongArray = 12,
}
