package org.viadsm.examples.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.viadsm.examples.barnes.BarnesApp;
import org.viadsm.examples.fft.FftApp;
import org.viadsm.examples.lu.LuApp;
import org.viadsm.examples.ocean.Ocean;
import org.viadsm.examples.radix.RadixApp;
import org.viadsm.examples.runtime.App;
import org.viadsm.examples.sor.Sor;
import org.viadsm.examples.tsp.TspApp;
import org.viadsm.examples.waternsq.WaterNsquared;
import org.viadsm.examples.waterspatial.WaterSpatial;
import picocli.CommandLine.Command;

/**
 * The applications {@code viadsm run} and {@code viadsm list} know, by name.
 */
public final class AppCatalog
{
    private static final Map<String, Entry> APPS = new LinkedHashMap<>();

    static
    {
        // One line per application, in the order `viadsm list` shows them.
        register(FftApp::new, "-m16 -t");
        register(LuApp::new, "-n512 -b16 -t");
        register(RadixApp::new, "-n1048576 -r1024 -t");
        register(Ocean::new, "-n258 -o");
        // The WATER programs read their input deck from standard input when given no file, as the C programs do.
        register(WaterNsquared::new, "");
        register(WaterSpatial::new, "");
        register(Sor::new, "-m2000 -n1000 -i50 -t");
        register(BarnesApp::new, "");
        register(TspApp::new, "-n19 -s1");
    }

    private AppCatalog()
    {
    }

    /**
     * Every application, in listing order.
     *
     * @return an unmodifiable list.
     */
    public static List<Entry> all()
    {
        return Collections.unmodifiableList(new ArrayList<>(APPS.values()));
    }

    /**
     * The application called {@code name}.
     *
     * @param name e.g. {@code fft}.
     * @return its entry.
     * @throws IllegalArgumentException naming the known applications if there is none by that name.
     */
    public static Entry find(final String name)
    {
        final Entry entry = APPS.get(name.toLowerCase(java.util.Locale.ROOT));
        if (null == entry)
        {
            throw new IllegalArgumentException("unknown application '" + name + "'; known: " + APPS.keySet());
        }
        return entry;
    }

    private static void register(final Supplier<App> factory, final String defaultArgs)
    {
        final App sample = factory.get();
        final Command command = sample.getClass().getAnnotation(Command.class);
        if (null == command)
        {
            throw new IllegalStateException(sample.getClass() + " lacks a picocli @Command annotation");
        }
        final String summary = command.description().length > 0 ? command.description()[0] : "";
        APPS.put(command.name(), new Entry(command.name(), summary, defaultArgs, factory));
    }

    /**
     * One application: its name, one-line summary, default arguments and a factory of instances.
     */
    public static final class Entry
    {
        private final String name;
        private final String summary;
        private final String defaultArgs;
        private final Supplier<App> factory;

        Entry(final String name, final String summary, final String defaultArgs, final Supplier<App> factory)
        {
            this.name = name;
            this.summary = summary;
            this.defaultArgs = defaultArgs;
            this.factory = factory;
        }

        /**
         * The name {@code viadsm run} takes.
         *
         * @return e.g. {@code fft}.
         */
        public String name()
        {
            return name;
        }

        /**
         * One line describing the application.
         *
         * @return the summary.
         */
        public String summary()
        {
            return summary;
        }

        /**
         * The arguments of the C program's default run, as {@code viadsm list} shows them.
         *
         * @return e.g. {@code -m16 -t}.
         */
        public String defaultArgs()
        {
            return defaultArgs;
        }

        /**
         * A fresh, unparsed instance.
         *
         * @return a new application object.
         */
        public App newInstance()
        {
            return factory.get();
        }
    }
}
