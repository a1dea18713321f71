package org.viadsm.examples.cli;

import java.util.List;

import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.App;
import picocli.CommandLine;

/**
 * Parses an application's own arguments into a fresh instance, as every node does for itself.
 */
final class AppArguments
{
    private AppArguments()
    {
    }

    /**
     * A new instance of the application with its options set from {@code args}.
     *
     * @throws CommandLine.ParameterException naming the bad argument, against the application's command line.
     */
    static App parse(final AppCatalog.Entry entry, final List<String> args)
    {
        final App app = entry.newInstance();
        new CommandLine(app).parseArgs(args.toArray(new String[0]));
        return app;
    }

    static String usage(final AppCatalog.Entry entry)
    {
        return new CommandLine(entry.newInstance()).getUsageMessage();
    }
}
