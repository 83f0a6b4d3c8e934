namespace Millrace.Nbt.Region;

/// <summary>A chunk of a region that could not be read (its place in the file, or its data), by its position within the region.</summary>
/// <param name="X">The chunk's x within the region, 0 to 31.</param>
/// <param name="Z">The chunk's z within the region, 0 to 31.</param>
/// <param name="Error">Why, located within the chunk.</param>
public readonly record struct RegionChunkError(int X, int Z, Error Error);
