using Millrace.Nbt.Region;
using Millrace.Nbt.Tags;
using Millrace.Nbt.Worlds;

namespace Millrace.Nbt.Tests.Worlds;

public sealed class WorldTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("millrace-world-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void AWorldFolder_GivesItsLevelDat_DimensionsRegionsAndPlayers()
    {
        var data = new NbtCompound
        {
            { "LevelName", new NbtString("Test world") },
            { "DataVersion", new NbtInt(3955) },
            { "Version", new NbtCompound { { "Name", new NbtString("1.21.1") } } },
            { "SpawnX", new NbtInt(16) }, { "SpawnY", new NbtInt(70) }, { "SpawnZ", new NbtInt(-32) },
            { "GameRules", new NbtCompound { { "keepInventory", new NbtString("true") } } },
        };
        var levelDat = new NbtFile(new NbtDocument(string.Empty, new NbtCompound { { "Data", data } }), NbtFormat.Java, NbtCompression.Gzip).ToArray();
        File.WriteAllBytes(Path.Combine(_folder, "level.dat"), levelDat);
        foreach (var region in new[] { "region/r.0.0.mca", "region/r.-1.0.mca", "region/r.0.-2.mca", "DIM-1/region/r.0.0.mca", "dimensions/mypack/sky/lands/region/r.3.4.mca", "entities/r.0.0.mca", "poi/r.0.0.mca" })
        {
            var path = Path.Combine(_folder, region);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllBytes(path, new RegionFile().ToArray());
        }

        File.WriteAllText(Path.Combine(_folder, "region", "r.a.b.mca"), "not a region");
        File.WriteAllText(Path.Combine(_folder, "region", "r.0.0.mca.bak"), "not a region");
        Directory.CreateDirectory(Path.Combine(_folder, "playerdata"));
        File.WriteAllBytes(Path.Combine(_folder, "playerdata", "b.dat"), levelDat);
        File.WriteAllBytes(Path.Combine(_folder, "playerdata", "a.dat"), levelDat);

        var world = World.Open(_folder);
        Assert.Equal("Test world", world.Name);
        Assert.Equal(3955, world.DataVersion);
        Assert.Equal("1.21.1", world.VersionName);
        Assert.Equal((16, 70, -32), world.Spawn);
        Assert.Equal("true", world.GameRules!.GetString("keepInventory"));
        Assert.Equal(levelDat, world.LevelDat.ToArray());

        Assert.Equal(["minecraft:overworld", "minecraft:the_nether", "mypack:sky/lands"], world.Dimensions.Select(d => d.Name));
        var overworld = world.Dimensions[0];
        Assert.Equal([(-1, 0), (0, -2), (0, 0)], overworld.Regions.Select(r => (r.X, r.Z)));
        Assert.Single(overworld.EntityRegions);
        Assert.Single(overworld.PoiRegions);
        Assert.Equal((3, 4), (world.Dimensions[2].Regions.Single().X, world.Dimensions[2].Regions.Single().Z));
        Assert.Equal(["a.dat", "b.dat"], world.PlayerFiles.Select(Path.GetFileName));
    }

    [Fact]
    public void AFolderWithoutLevelDat_OrALevelDatWithoutData_IsRefused()
    {
        Assert.Throws<FileNotFoundException>(() => World.Open(_folder));
        File.WriteAllBytes(Path.Combine(_folder, "level.dat"), new NbtFile(new NbtDocument(string.Empty, new NbtCompound()), NbtFormat.Java, NbtCompression.Gzip).ToArray());
        Assert.Equal(NbtErrorCodes.World, Assert.Throws<MillraceException>(() => World.Open(_folder)).Error.Code);
    }

    [Theory]
    [InlineData("r.0.0.mca", true, 0, 0)]
    [InlineData("r.-12.345.mca", true, -12, 345)]
    [InlineData("r.0.0.mcr", false, 0, 0)]
    [InlineData("r.+1.0.mca", false, 0, 0)]
    [InlineData("r.1.0.mca.tmp", false, 0, 0)]
    [InlineData("r.99999999999.0.mca", false, 0, 0)]
    [InlineData("r.01.0.mca", false, 0, 0)]
    [InlineData("r.-0.0.mca", false, 0, 0)]
    [InlineData("r.0.-07.mca", false, 0, 0)]
    public void RegionFileNames_GiveTheirCoordinates(string name, bool valid, int x, int z)
    {
        Assert.Equal(valid, RegionFileEntry.TryParse(name, out var parsedX, out var parsedZ));
        Assert.Equal((x, z), valid ? (parsedX, parsedZ) : (x, z));
    }
}
