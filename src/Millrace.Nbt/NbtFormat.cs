namespace Millrace.Nbt;

/// <summary>The binary flavours of NBT.</summary>
public enum NbtFormat
{
    /// <summary>Java Edition files: big-endian, Modified UTF-8 strings, a named root.</summary>
    Java,

    /// <summary>Java Edition network protocol (1.20.2+): as <see cref="Java"/>, but the root has no name and may be any tag type.</summary>
    JavaNetwork,

    /// <summary>Bedrock Edition files: little-endian, UTF-8 strings with 16-bit lengths, a named root.</summary>
    Bedrock,

    /// <summary>Bedrock Edition network: zigzag varint Int and Long, varuint string lengths, zigzag varint list and array lengths.</summary>
    BedrockNetwork,
}
