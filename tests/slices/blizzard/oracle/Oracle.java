import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.apache.lucene.analysis.*;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.*;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.*;
import org.apache.lucene.store.FSDirectory;

/** Lucene 6.2.0 oracle for the BLIZZARD baseline: index, search, tokens, info. */
public class Oracle {
  public static void main(String[] a) throws Exception {
    switch (a[0]) {
      case "info": info(a[1]); break;
      case "search": search(a[1], a[2], a[3]); break;
      case "index": index(a[1], a[2], a[3]); break;
      case "tokens": tokens(); break;
      case "docterms": docterms(a[1], Integer.parseInt(a[2])); break;
      case "norms": norms(a[1]); break;
      case "dump": dump(a[1], a[2]); break;
    }
  }
  static void info(String idx) throws Exception {
    IndexReader r = DirectoryReader.open(new org.apache.lucene.store.NIOFSDirectory(Paths.get(idx)));
    System.out.println("maxDoc " + r.maxDoc() + " numDocs " + r.numDocs());
    System.out.println("docCount " + r.getDocCount("contents") + " sumTTF " + r.getSumTotalTermFreq("contents") + " sumDF " + r.getSumDocFreq("contents"));
    for (int i = 0; i < Math.min(r.maxDoc(), Integer.parseInt(System.getProperty("n", "5"))); i++) System.out.println(i + " " + r.document(i).get("path"));
  }
  static void search(String idx, String queries, String out) throws Exception {
    IndexReader r = DirectoryReader.open(new org.apache.lucene.store.NIOFSDirectory(Paths.get(idx)));
    IndexSearcher s = new IndexSearcher(r);
    Analyzer an = new StandardAnalyzer();
    String[] names = new String[r.maxDoc()];
    for (int i = 0; i < r.maxDoc(); i++) { String p = r.document(i).get("path").replace('\\', '/'); names[i] = p.substring(p.lastIndexOf('/') + 1); }
    try (PrintWriter w = new PrintWriter(new OutputStreamWriter(new FileOutputStream(out), StandardCharsets.UTF_8))) {
      for (String line : new String(Files.readAllBytes(Paths.get(queries)), StandardCharsets.UTF_8).split("\r?\n")) {
        int t = line.indexOf('\t'); if (t < 0) continue;
        String bug = line.substring(0, t), q = line.substring(t + 1);
        StringBuilder sb = new StringBuilder(bug);
        try {
          if (!q.isEmpty()) {
            Query query = new QueryParser("contents", an).parse(q);
            TopDocs td = s.search(query, 100000);
            sb.append('\t').append(query.toString().length());
            for (ScoreDoc sd : td.scoreDocs) sb.append('\t').append(names[sd.doc]).append(':').append(Float.floatToIntBits(sd.score));
          }
        } catch (Exception e) { sb.append("\tERR ").append(e.getClass().getSimpleName()); }
        catch (Error e) { sb.append("\tERR ").append(e.getClass().getSimpleName()); }
        w.println(sb);
      }
    }
  }
  static void index(String listFile, String root, String idx) throws Exception {
    IndexWriter w = new IndexWriter(new org.apache.lucene.store.NIOFSDirectory(Paths.get(idx)), new IndexWriterConfig(new StandardAnalyzer()));
    for (String name : Files.readAllLines(Paths.get(listFile), StandardCharsets.UTF_8)) {
      File f = new File(root, name);
      Document doc = new Document();
      doc.add(new StringField("path", f.getPath(), Field.Store.YES));
      doc.add(new TextField("contents", new BufferedReader(new InputStreamReader(new FileInputStream(f), "UTF-8"))));
      w.addDocument(doc);
    }
    w.forceMerge(1);
    w.close();
  }
  static void docterms(String idx, int doc) throws Exception {
    IndexReader r = DirectoryReader.open(new org.apache.lucene.store.NIOFSDirectory(Paths.get(idx)));
    LeafReader lr = r.leaves().get(0).reader();
    TermsEnum te = lr.terms("contents").iterator();
    org.apache.lucene.util.BytesRef br;
    StringBuilder sb = new StringBuilder(); long total = 0;
    while ((br = te.next()) != null) {
      PostingsEnum pe = te.postings(null, PostingsEnum.FREQS);
      if (pe.advance(doc) == doc) { sb.append(br.utf8ToString()).append(':').append(pe.freq()).append(' '); total += pe.freq(); }
    }
    System.out.println("total " + total + " norm " + lr.getNormValues("contents").get(doc));
    System.out.println(sb);
  }
  static void dump(String idx, String out) throws Exception {
    IndexReader r = DirectoryReader.open(new org.apache.lucene.store.NIOFSDirectory(Paths.get(idx)));
    LeafReader lr = r.leaves().get(0).reader();
    StringBuilder[] sbs = new StringBuilder[r.maxDoc()];
    for (int i = 0; i < sbs.length; i++) { String p = r.document(i).get("path").replace('\\', '/'); sbs[i] = new StringBuilder(p.substring(p.lastIndexOf('/') + 1)); sbs[i].append('\t').append(lr.getNormValues("contents").get(i)); }
    TermsEnum te = lr.terms("contents").iterator();
    org.apache.lucene.util.BytesRef br; PostingsEnum pe = null;
    while ((br = te.next()) != null) {
      String t = br.utf8ToString();
      pe = te.postings(pe, PostingsEnum.FREQS);
      int d;
      while ((d = pe.nextDoc()) != DocIdSetIterator.NO_MORE_DOCS) sbs[d].append('\t').append(t).append(' ').append(pe.freq());
    }
    try (PrintWriter w = new PrintWriter(new OutputStreamWriter(new FileOutputStream(out), StandardCharsets.UTF_8))) { for (StringBuilder sb : sbs) w.println(sb); }
  }
  static void norms(String idx) throws Exception {
    IndexReader r = DirectoryReader.open(new org.apache.lucene.store.NIOFSDirectory(Paths.get(idx)));
    LeafReader lr = r.leaves().get(0).reader();
    NumericDocValues nv = lr.getNormValues("contents");
    for (int i = 0; i < r.maxDoc(); i++) { String p = r.document(i).get("path").replace('\\', '/'); System.out.println(p.substring(p.lastIndexOf('/') + 1) + "\t" + nv.get(i)); }
  }
  static void tokens() throws Exception {
    Analyzer an = new StandardAnalyzer();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      line = line.replace("\\n", "\n").replace("\\u200b", "\u200b").replace("\\ufeff", "\ufeff");
      StringBuilder sb = new StringBuilder();
      try (TokenStream ts = an.tokenStream("contents", line)) {
        CharTermAttribute c = ts.addAttribute(CharTermAttribute.class);
        PositionIncrementAttribute pi = ts.addAttribute(PositionIncrementAttribute.class);
        TypeAttribute ty = ts.addAttribute(TypeAttribute.class);
        ts.reset();
        while (ts.incrementToken()) sb.append(c.toString()).append(pi.getPositionIncrement() != 1 ? "+" + pi.getPositionIncrement() : "").append(" | ");
        ts.end();
      }
      System.out.println(sb);
    }
  }
}
