using Millrace.Nbt.Region;

namespace Millrace.Nbt.Worlds;

/// <summary>What a <see cref="ChunkQuery"/> selected in one region (<see cref="ChunkQuery.Select"/>).</summary>
/// <param name="Matches">The chunks that match, in the region's index order.</param>
/// <param name="Chunks">How many chunks the region has.</param>
/// <param name="Errors">The chunks that could not be read, which neither match nor stop the others.</param>
public sealed record RegionSelection(IReadOnlyList<RegionChunk> Matches, int Chunks, IReadOnlyList<RegionChunkError> Errors);
