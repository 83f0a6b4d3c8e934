#if MILLRACE_CLUSTER
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Orleans.Configuration;
using StackExchange.Redis;

namespace Millrace.Cli.Cluster;

/// <summary>
/// How the tool's silos find each other and clients find them: development clustering on one machine, the first silo
/// (the primary) on <see cref="PrimarySiloPort"/> and the others joining it on ports of their own, and clients connecting
/// to any silo's gateway.
/// </summary>
internal static class ClusterConnection
{
    /// <summary>The Orleans cluster and service id of the tool's silos.</summary>
    public const string ClusterId = "millrace";

    /// <summary>The silo port of the primary silo, which the others join.</summary>
    public const int PrimarySiloPort = 11111;

    /// <summary>The gateway port of the primary silo, the default of <c>--cluster</c>.</summary>
    public const int PrimaryGatewayPort = 30000;

    /// <summary>Parses a <c>--cluster</c> value: a silo's gateway <c>HOST:PORT</c>, or <c>redis://HOST:PORT</c> for the silos' Redis.</summary>
    /// <returns>The address, or <see langword="null"/> when the text is neither.</returns>
    public static ClusterAddress? ParseAddress(string text) =>
        text.StartsWith(RedisScheme, StringComparison.OrdinalIgnoreCase)
            ? ParseEndpoint(text[RedisScheme.Length..]) is { } redis ? new ClusterAddress(null, redis) : null
            : ParseEndpoint(text) is { } gateway ? new ClusterAddress(gateway, null) : null;

    private const string RedisScheme = "redis://";

    /// <summary>Parses <c>HOST:PORT</c> (HOST an IP address or a name this machine resolves; a port alone is on this machine) into an endpoint.</summary>
    /// <returns>The endpoint, or <see langword="null"/> when the text is not one or its name does not resolve.</returns>
    public static IPEndPoint? ParseEndpoint(string text)
    {
        var colon = text.LastIndexOf(':');
        var host = colon < 0 ? "127.0.0.1" : text[..colon];
        var portText = colon < 0 ? text : text[(colon + 1)..];
        if (!int.TryParse(portText, NumberStyles.None, CultureInfo.InvariantCulture, out var port) || port is < 1 or > 65535)
        {
            return null;
        }

        if (host is "localhost" or "")
        {
            return new IPEndPoint(IPAddress.Loopback, port);
        }

        if (IPAddress.TryParse(host, out var address))
        {
            return new IPEndPoint(address, port);
        }

        // A machine's name, as users of several machines give it: its first IPv4 address (Orleans listens on IPv4).
        try
        {
            var addresses = Dns.GetHostAddresses(host);
            var chosen = addresses.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork) ?? addresses.FirstOrDefault();
            return chosen is null ? null : new IPEndPoint(chosen, port);
        }
        catch (SocketException)
        {
            return null;
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    /// <summary>
    /// Claims this machine's first free pair of silo and gateway ports counted up from the primary's (11111 and 30000, then
    /// 11112 and 30001, and so on). A silo started again on this machine after a crash takes its old place, and Orleans
    /// declares its old entry dead as soon as it joins (same address, older generation) rather than after failure detection:
    /// with Redis and ports the system picked, a restart of every silo waited about 90 s for the old entries.
    /// </summary>
    /// <param name="folder">Where the claims' lock files are kept (one empty file per pair, left for the next claim).</param>
    /// <param name="firstSiloPort">The first pair's silo port.</param>
    /// <param name="firstGatewayPort">The first pair's gateway port.</param>
    /// <returns>
    /// The claim: a lock on the pair's file, held until it is disposed or the process ends however it ends (the system
    /// drops it), so silos started together never take the same pair. A pair whose ports something else holds is passed over.
    /// </returns>
    public static PortClaim ClaimPorts(string folder, int firstSiloPort = PrimarySiloPort, int firstGatewayPort = PrimaryGatewayPort)
    {
        for (var pair = 0; pair < ClaimablePairs; pair++)
        {
            FileStream lockFile;
            try
            {
                Directory.CreateDirectory(folder);

                // FileShare.None is an exclusive advisory lock (flock) on Unix, a sharing lock on Windows.
                lockFile = new FileStream(Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $"silo-{firstSiloPort + pair}.lock")), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException)
            {
                // Another silo holds this pair.
                continue;
            }
            catch (UnauthorizedAccessException)
            {
                // No place for claims (a read-only home): the ports the system picks still work, without the quick restart.
                break;
            }

            if (IsFree(firstSiloPort + pair) && IsFree(firstGatewayPort + pair))
            {
                return new PortClaim(firstSiloPort + pair, firstGatewayPort + pair, lockFile);
            }

            lockFile.Dispose();
        }

        return new PortClaim(FreePort(), FreePort(), null);
    }

    /// <summary>The gateway port <see cref="ClaimPorts"/> pairs with <paramref name="siloPort"/> when it is free, else a free one.</summary>
    public static int PairedGatewayPort(int siloPort) =>
        siloPort - PrimarySiloPort is >= 0 and < ClaimablePairs and var pair && IsFree(PrimaryGatewayPort + pair) ? PrimaryGatewayPort + pair : FreePort();

    /// <summary>This user's folder for the tool's state on this machine: <c>~/.local/share/millrace</c> on Linux, the temporary folder where there is no such place.</summary>
    public static string MachineFolder() =>
        Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData) is { Length: > 0 } data ? data : Path.GetTempPath(), "millrace");

    /// <summary>How often a tool's silo reads the membership table again (Orleans' default: 60 s).</summary>
    public static readonly TimeSpan MembershipRefresh = TimeSpan.FromSeconds(10);

    /// <summary>How many pairs <see cref="ClaimPorts"/> tries before it takes ports the system picks.</summary>
    private const int ClaimablePairs = 100;

    /// <summary>Whether a TCP port on the loopback address is free now.</summary>
    public static bool IsFree(int port)
    {
        try
        {
            using var listener = new TcpListener(IPAddress.Loopback, port);
            listener.Start();
            listener.Stop();
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>A TCP port on the loopback address that is free now.</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>How long a client tries to reach a gateway before it reports the cluster unreachable.</summary>
    public static readonly TimeSpan ConnectTimeout = TimeSpan.FromSeconds(20);

    /// <summary>A host for a silo or a client inside the tool: no logging, and no signal handling of its own.</summary>
    public static HostApplicationBuilder HostBuilder()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Logging.ClearProviders();
        builder.Services.AddSingleton<IHostLifetime, ToolHostLifetime>();
        return builder;
    }

    /// <summary>Connects a client to the cluster: through a silo's gateway, or through the Redis that holds the silos' membership.</summary>
    /// <returns>The started host; its services hold the <see cref="IClusterClient"/>.</returns>
    /// <exception cref="TimeoutException">No silo answered within <see cref="ConnectTimeout"/>.</exception>
    public static async Task<IHost> ConnectAsync(ClusterAddress address, CancellationToken cancellationToken)
    {
        var builder = HostBuilder();
        builder.UseOrleansClient(client =>
        {
            client.Configure<ClusterOptions>(o => (o.ClusterId, o.ServiceId) = (ClusterId, ClusterId));
            if (address.Redis is { } redis)
            {
                client.UseRedisClustering(o => o.ConfigurationOptions = RedisOptions(redis));
            }
            else
            {
                client.UseStaticClustering(address.Gateway!);
            }
        });
        var host = builder.Build();
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(ConnectTimeout);
        try
        {
            await host.StartAsync(timeout.Token);
            return host;
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            host.Dispose();

            // The Redis client retries in the background and reports a Redis it cannot reach only when a command times
            // out, which a loaded machine can delay past the connect timeout: what went wrong is then asked directly.
            if (address.Redis is { } redis && !await AcceptsConnectionsAsync(redis, cancellationToken))
            {
                throw new CliException(CliErrorCodes.Cluster, $"No Redis answered at {redis} within {ConnectTimeout.TotalSeconds:0} s.");
            }

            throw new CliException(CliErrorCodes.Cluster, $"No silo answered at {address} within {ConnectTimeout.TotalSeconds:0} s.");
        }
        catch (RedisConnectionException exception)
        {
            host.Dispose();
            throw RedisUnreachable(address.Redis!, exception);
        }
        catch
        {
            host.Dispose();
            throw;
        }
    }

    /// <summary>
    /// The tool handles SIGINT and SIGTERM itself (Program.cs) and stops its hosts through the command's token; a host's
    /// default console lifetime would catch the same signals, stop on its own and race the tool's exit code.
    /// </summary>
    private sealed class ToolHostLifetime : IHostLifetime
    {
        public Task WaitForStartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }

    // Whether anything accepts a TCP connection at the endpoint within a few seconds.
    private static async Task<bool> AcceptsConnectionsAsync(IPEndPoint endpoint, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(3));
        using var socket = new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            await socket.ConnectAsync(endpoint, timeout.Token);
            return true;
        }
        catch (Exception exception) when (exception is SocketException or OperationCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return false;
        }
    }

    /// <summary>What a silo or a client reports when the cluster's Redis cannot be reached.</summary>
    /// <param name="redis">The Redis.</param>
    /// <param name="exception">The client library's error, whose message is a page of the connection's state: what the user needs is where and what failed.</param>
    /// <returns>The error, as the tool reports a cluster it cannot reach.</returns>
    public static CliException RedisUnreachable(IPEndPoint redis, RedisConnectionException exception) =>
        new(CliErrorCodes.Cluster, $"No Redis answered at {redis} ({exception.FailureType}).");

    /// <summary>Whether <paramref name="exception"/> comes from binding a port something else holds (Orleans wraps the socket's error).</summary>
    public static bool IsAddressInUse(Exception exception)
    {
        for (Exception? inner = exception; inner is not null; inner = inner.InnerException)
        {
            if (inner is SocketException { SocketErrorCode: SocketError.AddressAlreadyInUse })
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Redis connection options for <c>HOST:PORT</c>: it keeps retrying a Redis that restarts, as the silos must.</summary>
    public static ConfigurationOptions RedisOptions(IPEndPoint redis)
    {
        var options = new ConfigurationOptions { AbortOnConnectFail = false };
        options.EndPoints.Add(redis);
        return options;
    }

    /// <summary>The client of a connected host.</summary>
    public static IClusterClient Client(this IHost host) => host.Services.GetRequiredService<IClusterClient>();
}

/// <summary>A silo's ports, claimed by <see cref="ClusterConnection.ClaimPorts"/>: kept while the claim is not disposed.</summary>
/// <param name="SiloPort">The silo port.</param>
/// <param name="GatewayPort">The gateway port.</param>
/// <param name="LockFile">The lock that holds the pair; none when every pair was taken and the system picked the ports.</param>
internal sealed record PortClaim(int SiloPort, int GatewayPort, FileStream? LockFile) : IDisposable
{
    public void Dispose() => LockFile?.Dispose();
}

/// <summary>Where a client finds the cluster: a silo's gateway (<c>--cluster</c>) or the silos' Redis (<c>--redis</c>).</summary>
/// <param name="Gateway">A silo's gateway.</param>
/// <param name="Redis">The Redis holding the silos' membership.</param>
internal sealed record ClusterAddress(IPEndPoint? Gateway, IPEndPoint? Redis)
{
    public override string ToString() => Redis is { } redis ? $"the silos of Redis {redis}" : $"the gateway {Gateway}";
}
#endif
