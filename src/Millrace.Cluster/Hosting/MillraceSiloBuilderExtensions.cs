using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Millrace.Cluster.Jobs;

namespace Millrace.Cluster.Hosting;

/// <summary>Makes a silo a Millrace worker: it leases items of running jobs and runs them with handlers registered by name.</summary>
public static class MillraceSiloBuilderExtensions
{
    /// <summary>
    /// Registers a handler under <paramref name="name"/> and makes the silo a worker. Register every handler on every silo:
    /// a silo leases items only of jobs whose handler it has.
    /// </summary>
    /// <typeparam name="THandler">The handler; one instance serves every item, concurrently.</typeparam>
    /// <param name="builder">The silo builder.</param>
    /// <param name="name">The name jobs give to run their items with this handler.</param>
    /// <param name="configure">Sets the worker's options, if given.</param>
    /// <returns>The silo builder.</returns>
    public static ISiloBuilder AddMillraceWorker<THandler>(this ISiloBuilder builder, string name, Action<ClusterWorkerOptions>? configure = null)
        where THandler : class, IWorkItemHandler
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        builder.Services.AddKeyedSingleton<IWorkItemHandler, THandler>(name);
        var options = builder.Services.AddOptions<ClusterWorkerOptions>().Validate(
            static o =>
            {
                o.Validate();
                return true;
            });
        if (configure is not null)
        {
            options.Configure(configure);
        }

        builder.Services.TryAddKeyedSingleton(ClusterHostingConstants.TimeProviderKey, TimeProvider.System);
        builder.Services.TryAddSingleton(static services => new SharedLimits(
            services.GetRequiredService<IGrainFactory>(),
            services.GetRequiredService<ILocalSiloDetails>(),
            services.GetRequiredKeyedService<TimeProvider>(ClusterHostingConstants.TimeProviderKey)));
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<IHostedService, ClusterWorker>());
        return builder;
    }
}
