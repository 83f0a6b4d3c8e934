using System.Net;
using System.Net.Sockets;
using Millrace.Cli.Cluster;

namespace Millrace.Cli.Tests;

/// <summary>How a silo started without --port picks its ports: the first free pair counted up, held while it runs.</summary>
public sealed class ClusterPortsTests : IDisposable
{
    private readonly DirectoryInfo _claims = Directory.CreateTempSubdirectory("millrace-ports-");

    public void Dispose() => _claims.Delete(recursive: true);

    [Fact]
    public void Claims_TakeConsecutivePairs_AndAReleasedPairIsTakenAgain()
    {
        var (silo, gateway) = FreeBase();
        using (var first = ClusterConnection.ClaimPorts(_claims.FullName, silo, gateway))
        {
            using var second = ClusterConnection.ClaimPorts(_claims.FullName, silo, gateway);
            Assert.Equal((silo, gateway), (first.SiloPort, first.GatewayPort));
            Assert.Equal((silo + 1, gateway + 1), (second.SiloPort, second.GatewayPort));
        }

        // A silo that ended, however it ended, leaves its pair to the next one started: its place in the cluster.
        using var again = ClusterConnection.ClaimPorts(_claims.FullName, silo, gateway);
        Assert.Equal((silo, gateway), (again.SiloPort, again.GatewayPort));
    }

    [Fact]
    public void Claim_PassesOverAPairWhosePortSomethingElseHolds()
    {
        var (silo, gateway) = FreeBase();
        using var holder = new TcpListener(IPAddress.Loopback, gateway);
        holder.Start();

        using var claim = ClusterConnection.ClaimPorts(_claims.FullName, silo, gateway);

        Assert.Equal((silo + 1, gateway + 1), (claim.SiloPort, claim.GatewayPort));
    }

    [Fact]
    public void Claim_WithNoPlaceForItsLocks_TakesPortsTheSystemPicks()
    {
        var (silo, gateway) = FreeBase();
        var blocked = Path.Combine(_claims.FullName, "a-file");
        File.WriteAllText(blocked, string.Empty);

        using var claim = ClusterConnection.ClaimPorts(Path.Combine(blocked, "claims"), silo, gateway);

        Assert.Null(claim.LockFile);
        Assert.NotEqual(0, claim.SiloPort);
        Assert.NotEqual(claim.SiloPort, claim.GatewayPort);
    }

    // Two runs of four free loopback ports, far from the tool's defaults so that silos of other tests never hold them.
    private static (int Silo, int Gateway) FreeBase()
    {
        for (var attempt = 0; attempt < 50; attempt++)
        {
            var silo = Random.Shared.Next(40_000, 50_000);
            var gateway = silo + 10_000;
            if (Enumerable.Range(0, 4).All(i => ClusterConnection.IsFree(silo + i) && ClusterConnection.IsFree(gateway + i)))
            {
                return (silo, gateway);
            }
        }

        throw new InvalidOperationException("No free run of ports was found.");
    }
}
