import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Starts Debian's JMeter 2.13 (apt-get install jmeter jmeter-http) so that it can load test plans.
 *
 * <p>Why this exists: Debian 12 builds JMeter 2.13 against the system XStream (1.4.20). XStream 1.4.18
 * and later refuse to read any class that is not on an allow-list, and JMeter 2.13, written for an
 * older XStream, never puts its own classes there. So `jmeter -n -t plan.jmx` stops at the first
 * element with "ForbiddenClassException: org.apache.jmeter.save.ScriptWrapper" and still exits with
 * code 0. This launcher does what JMeter's own start-up would, then allows JMeter's packages on the
 * XStream instances JMeter reads plans and results with, and hands over to JMeter with the same
 * arguments. JMeter 3 and later (the Apache downloads) do not need it.
 *
 * <p>Run it with JMeter's jars on the class path (their manifests name the Debian jars they need):
 * java -Djmeter.home=/usr/share/jmeter
 *      -cp "/usr/share/jmeter/bin/ApacheJMeter.jar:/usr/share/jmeter/lib/*:/usr/share/jmeter/lib/ext/*:DIR"
 *      DebianJMeter -n -t plan.jmx -l out.jtl
 * The engine (packages/engine/src/adapters/debian-jmeter.ts) compiles it once with javac into a cache
 * directory and runs it whenever the `jmeter` it finds is Debian's package and JMETER_CMD is not set.
 * Only reflection is used, so it compiles without JMeter on the class path.
 */
public final class DebianJMeter {
  /** The packages whose classes a JMeter test plan or result file names. */
  private static final String[] JMETER_TYPES = {"org.apache.jmeter.**", "org.apache.jorphan.**", "java.**"};

  private DebianJMeter() {}

  public static void main(String[] args) throws Exception {
    String home = System.getProperty("jmeter.home", "/usr/share/jmeter");
    // SaveService reads its own properties when its class initialises, so JMeter's home and
    // properties must be known before its fields are touched (as JMeter's start-up would do).
    Class<?> utils = Class.forName("org.apache.jmeter.util.JMeterUtils");
    utils.getMethod("setJMeterHome", String.class).invoke(null, home);
    utils.getMethod("loadJMeterProperties", String.class).invoke(null, home + "/bin/jmeter.properties");

    int opened = 0;
    Class<?> saveService = Class.forName("org.apache.jmeter.save.SaveService");
    for (Field field : saveService.getDeclaredFields()) {
      if (!Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) continue;
      field.setAccessible(true);
      Object value = field.get(null);
      if (value != null && allowJMeterTypes(value)) opened++;
    }
    if (opened == 0) {
      System.err.println(
          "DebianJMeter: found no XStream instance in JMeter's SaveService; starting JMeter unchanged");
    }

    Class<?> jmeter = Class.forName("org.apache.jmeter.JMeter");
    Object instance = jmeter.getDeclaredConstructor().newInstance();
    jmeter.getMethod("start", String[].class).invoke(instance, (Object) args);
  }

  /** Allows JMeter's packages on `value` when it is an XStream; says whether it was one. */
  private static boolean allowJMeterTypes(Object value) throws Exception {
    for (Class<?> c = value.getClass(); c != null; c = c.getSuperclass()) {
      if (!c.getName().equals("com.thoughtworks.xstream.XStream")) continue;
      Method allow = c.getMethod("allowTypesByWildcard", String[].class);
      allow.invoke(value, (Object) JMETER_TYPES);
      return true;
    }
    return false;
  }
}
