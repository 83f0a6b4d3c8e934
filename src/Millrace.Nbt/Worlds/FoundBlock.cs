namespace Millrace.Nbt.Worlds;

/// <summary>A block found in a chunk (<see cref="Chunk.FindBlocks"/>): where it is, at world coordinates, and its state.</summary>
/// <param name="X">The block's world x.</param>
/// <param name="Y">The block's world y.</param>
/// <param name="Z">The block's world z.</param>
/// <param name="State">The block's state.</param>
public readonly record struct FoundBlock(int X, int Y, int Z, BlockState State);
